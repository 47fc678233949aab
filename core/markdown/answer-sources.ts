/** A page the answer may cite: from a `source-url` part, or a hit of the `search` tool result. */
export interface Source {
  /** `src_N` for a `source-url` part; a hit's place (`hit_N`) otherwise. */
  id: string;
  url: string;
  title: string;
}

/** A page's identity: its address without the anchor, query or trailing slash, so each section of a page is the same page. */
export function pageKey(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

/**
 * The docs site a search hit lives on: its absolute `url` less its `path`
 * (`https://acme.com/docs/guides/x#a` with `/guides/x` gives
 * `https://acme.com/docs`), so site-relative links resolve as the domain's
 * base URL says even when the widget is not on the docs site.
 */
export function siteOf(url: string, path: string): string | undefined {
  const page = url.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const tail = `/${path.replace(/^\/+/, '').replace(/\/+$/, '')}`;
  return tail !== '/' && page.endsWith(tail) ? page.slice(0, -tail.length) : undefined;
}

/**
 * What one answer has to cite from: the pages of its `source-url` parts
 * (listed under the answer) and of its `search` tool hits (for citations
 * written before the sources arrive, and for `[N]` markers of a server that
 * numbers passages). Each page is kept once, under its first address.
 */
export class AnswerSources {
  /** Pages in the order they came, each once. */
  private readonly pages = new Map<string, Source>();
  private readonly listedKeys = new Set<string>();
  /** `src_N` ids and hit places, to the page they name (several may name one page). */
  private readonly byId = new Map<string, string>();
  private hitCount = 0;

  /** A `source-url` part: listed under the answer. */
  addSource(source: Source): void {
    const key = this.remember(source);
    if (key) this.listedKeys.add(key);
  }

  /** A `search` tool hit: citable, listed only once the answer cites it. */
  addHit(url: string, title: string): void {
    this.hitCount += 1;
    this.remember({ id: `hit_${this.hitCount}`, url, title });
  }

  private remember(source: Source): string | undefined {
    const key = pageKey(source.url);
    if (!key) return undefined;
    if (!this.pages.has(key)) this.pages.set(key, source);
    this.byId.set(source.id, key);
    return key;
  }

  /** The page a link points to, when it is one of the answer's. */
  byUrl(url: string): { key: string; source: Source } | undefined {
    const key = pageKey(url);
    const source = key ? this.pages.get(key) : undefined;
    return key && source ? { key, source } : undefined;
  }

  /** The page of a `[N]` marker: the `source-url` part `src_N`, else the N-th search hit. */
  byMarker(n: number): { key: string; source: Source } | undefined {
    const key = this.byId.get(`src_${n}`) ?? this.byId.get(`hit_${n}`);
    const source = key ? this.pages.get(key) : undefined;
    return key && source ? { key, source } : undefined;
  }

  /** The pages to list under the answer: those cited, in order of first citation, then the other listed ones. */
  listed(cited: readonly string[]): Source[] {
    const rest = [...this.listedKeys].filter((key) => !cited.includes(key));
    return [...cited, ...rest].flatMap((key) => {
      const source = this.pages.get(key);
      return source ? [source] : [];
    });
  }
}
