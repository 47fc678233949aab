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

/**
 * `[2]` becomes `[[2]](url of citation 2)`, so any Markdown renderer shows a
 * link. Left alone: numbers no citation has, markers that are already links
 * (`[2](…)`) or reference definitions (`[2]:`), and anything inside inline
 * code or a fenced code block, where `arr[1]` is code, not a citation.
 */
export function citationLinker(citations: Citation[]): CitationLinker {
  let pending = '';
  let atLineStart = true;
  let inFence = false;
  let fence = '';
  let codeTicks = 0;
  let previous = '';

  const run = (text: string, from: number, char: string) => {
    let end = from;
    while (text[end] === char) end++;
    return end - from;
  };

  /** Processes `pending` as far as it can be decided; with `final`, all of it. */
  const drain = (final: boolean): string => {
    const text = pending;
    let out = '';
    let i = 0;
    const emit = (s: string) => {
      out += s;
      previous = s.at(-1) ?? previous;
    };
    while (i < text.length) {
      const c = text[i]!;
      if (c === '\n') {
        emit(c);
        atLineStart = true;
        codeTicks = 0;
        i++;
        continue;
      }
      if (atLineStart && (c === ' ' || c === '>')) {
        emit(c);
        i++;
        continue;
      }
      if (c === '`' || (atLineStart && c === '~')) {
        const n = run(text, i, c);
        if (i + n === text.length && !final) break; // the run may go on in the next chunk
        const ticks = c.repeat(n);
        if (atLineStart && n >= 3) {
          if (!inFence) [inFence, fence] = [true, ticks];
          else if (c === fence[0] && n >= fence.length) inFence = false;
        } else if (c === '`' && !inFence) {
          codeTicks = codeTicks === 0 ? n : codeTicks === n ? 0 : codeTicks;
        }
        atLineStart = false;
        emit(ticks);
        i += n;
        continue;
      }
      atLineStart = false;
      if (c !== '[' || inFence || codeTicks > 0) {
        emit(c);
        i++;
        continue;
      }
      const rest = text.slice(i);
      const marker = MARKER.exec(rest);
      if (!marker) {
        if (PARTIAL_MARKER.test(rest) && !final) break;
        emit(c);
        i++;
        continue;
      }
      const after = rest[marker[0].length];
      if (after === undefined && !final) break; // `(` or `:` may follow
      const citation = citations[Number(marker[1]) - 1];
      const linked = citation && after !== '(' && after !== ':' && previous !== '[';
      emit(linked ? `[${marker[0]}](${linkTarget(citation.url)})` : marker[0]);
      i += marker[0].length;
    }
    pending = text.slice(i);
    return out;
  };

  return {
    push(delta) {
      // Most deltas are plain prose: nothing in them can start a marker, code or a line.
      if (!pending && !SPECIAL.test(delta) && !(atLineStart && /^[ >]/.test(delta))) {
        if (delta) [atLineStart, previous] = [false, delta.at(-1) ?? previous];
        return delta;
      }
      pending += delta;
      return drain(false);
    },
    flush() {
      return drain(true);
    },
  };
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
