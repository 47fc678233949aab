import type { Citation } from './answer-writer.js';

/** Rewrites an answer's `[n]` citation markers into Markdown links as the text streams. */
export interface CitationLinker {
  /** The text that can be written now; a possible marker cut by the chunk boundary waits for the next push. */
  push(delta: string): string;
  /** Whatever is still held back, at the end of the answer. */
  flush(): string;
}

/** Parentheses and spaces would end a Markdown link destination early. */
const linkTarget = (url: string) => url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

const MARKER = /^\[(\d{1,3})\]/;
/** What the linker must read character by character: a possible marker, code span or fence, or a new line. */
const SPECIAL = /[[`~\n]/;
/** A prefix of a marker that more text could complete: `[`, `[1`, `[12`. */
const PARTIAL_MARKER = /^\[\d{0,3}$/;

/** The length of the run of `char` in `text` from `from`. */
function runLength(text: string, from: number, char: string): number {
  let end = from;
  while (text[end] === char) end++;
  return end - from;
}

/**
 * `[2]` becomes `[[2]](url of citation 2)`, so any Markdown renderer shows a
 * link. Left alone: numbers no citation has, markers that are already links
 * (`[2](…)`) or reference definitions (`[2]:`), and anything inside inline
 * code or a fenced code block, where `arr[1]` is code, not a citation.
 * One object per answer, its state in fields (closures cost an allocation each, per answer and per drain).
 */
class MarkdownCitationLinker implements CitationLinker {
  private pending = '';
  private atLineStart = true;
  private inFence = false;
  private fence = '';
  private codeTicks = 0;
  /** The last character written out. */
  private previous = '';

  constructor(private readonly citations: Citation[]) {}

  push(delta: string): string {
    // Most deltas are plain prose: nothing in them can start a marker, code or a line.
    if (!this.pending && !SPECIAL.test(delta) && !(this.atLineStart && (delta[0] === ' ' || delta[0] === '>'))) {
      if (delta) {
        this.atLineStart = false;
        this.previous = delta.at(-1)!;
      }
      return delta;
    }
    this.pending += delta;
    return this.drain(false);
  }

  flush(): string {
    return this.drain(true);
  }

  /** Processes `pending` as far as it can be decided; with `final`, all of it. */
  private drain(final: boolean): string {
    const text = this.pending;
    let out = '';
    let i = 0;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '\n') {
        out += c;
        this.atLineStart = true;
        this.codeTicks = 0;
        i++;
        continue;
      }
      if (this.atLineStart && (c === ' ' || c === '>')) {
        out += c;
        i++;
        continue;
      }
      if (c === '`' || (this.atLineStart && c === '~')) {
        const n = runLength(text, i, c);
        if (i + n === text.length && !final) break; // the run may go on in the next chunk
        const ticks = c.repeat(n);
        if (this.atLineStart && n >= 3) {
          if (!this.inFence) [this.inFence, this.fence] = [true, ticks];
          else if (c === this.fence[0] && n >= this.fence.length) this.inFence = false;
        } else if (c === '`' && !this.inFence) {
          this.codeTicks = this.codeTicks === 0 ? n : this.codeTicks === n ? 0 : this.codeTicks;
        }
        this.atLineStart = false;
        out += ticks;
        i += n;
        continue;
      }
      this.atLineStart = false;
      if (c !== '[' || this.inFence || this.codeTicks > 0) {
        out += c;
        i++;
        continue;
      }
      const rest = text.slice(i);
      const marker = MARKER.exec(rest);
      if (!marker) {
        if (PARTIAL_MARKER.test(rest) && !final) break;
        out += c;
        i++;
        continue;
      }
      const after = rest[marker[0].length];
      if (after === undefined && !final) break; // `(` or `:` may follow
      const citation = this.citations[Number(marker[1]) - 1];
      // `previous` is the character before this marker: what this drain wrote last, else an earlier write's.
      const before = out ? out[out.length - 1] : this.previous;
      const linked = citation && after !== '(' && after !== ':' && before !== '[';
      out += linked ? `[${marker[0]}](${linkTarget(citation.url)})` : marker[0];
      i += marker[0].length;
    }
    if (out) this.previous = out[out.length - 1]!;
    this.pending = text.slice(i);
    return out;
  }
}

export function citationLinker(citations: Citation[]): CitationLinker {
  return new MarkdownCitationLinker(citations);
}

/** The whole answer with its markers linked. */
export function linkCitations(text: string, citations: Citation[]): string {
  const linker = citationLinker(citations);
  return linker.push(text) + linker.flush();
}

/** A citation as the structured fields show it: `index` is the `n` of the `[n]` markers. */
export interface NumberedCitation {
  index: number;
  title: string;
  url: string;
  path: string;
}

export function numberedCitations(citations: Citation[]): NumberedCitation[] {
  return citations.map((c, i) => ({ index: i + 1, title: c.title, url: c.url, path: c.path }));
}
