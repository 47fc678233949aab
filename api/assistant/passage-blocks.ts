/**
 * A documentation passage read as Markdown blocks: headings, prose paragraphs (a paragraph's
 * hard-wrapped lines joined, as a renderer joins them), fenced code and tables. What an answer
 * without a model quotes from: whole sentences of paragraphs, and code blocks and table rows with
 * what introduces them.
 */

export type PassageBlock =
  | { kind: 'heading'; text: string }
  /** Prose with HTML and JSX tags, images and relative links (they point nowhere from an answer) taken out. */
  | { kind: 'paragraph'; text: string; item?: true }
  /** `complete`: its closing fence is in the passage (a chunk may cut a block off). */
  | { kind: 'code'; fence: string; language: string; body: string[]; complete: boolean }
  /** A pipe table: its header row, delimiter row and body rows as written (trimmed). */
  | { kind: 'table'; header: string; delimiter: string; rows: string[] };

/** A table's delimiter row: `|---|:---:|`, each cell dashes with optional colons. */
const TABLE_DELIMITER = /^\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?$/;

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+#.-]*)/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;

/** A Markdown heading, or a line that is bold text alone (`**Install the CLI**`), which pages use as one. */
export function isHeading(line: string): boolean {
  return /^#{1,6}\s/.test(line) || /^(\*\*|__)[^*_]+\1:?$/.test(line);
}

/** A heading line as text: `## Install the SDK` and `**Install the SDK**` are `Install the SDK`. */
function headingText(line: string): string {
  return line
    .replace(/^#{1,6}\s+/, '')
    .replace(/^(\*\*|__)(.*)\1:?$/, '$2')
    .replace(/\s+#+$/, '')
    .trim();
}

/** An inline code span (`` `…` ``, or fenced by a longer run of backticks): what it holds is text, whatever it looks like. */
const INLINE_CODE = /(`+)(?:(?!\1).)+?\1/g;
/** Stands for the n-th inline code span while markup is taken out (a private-use character, not in prose). */
const HELD = /\uE000(\d+)\uE000/g;

/**
 * A prose line as a renderer shows its text: tags out (their children stay), images out, relative
 * links as their text, quote marks off; inline code as written (`<queue>.dlq` is a name to type,
 * not a tag).
 */
function proseOf(line: string): string {
  const code: string[] = [];
  return line
    .replace(INLINE_CODE, (span) => `\uE000${code.push(span) - 1}\uE000`)
    // A tag is a word break, except before punctuation (`<Note>its text</Note>.`).
    .replace(/<\/?[A-Za-z][\w.:-]*(\s[^<>]*)?\/?>/g, (tag: string, _attributes: unknown, at: number, all: string) => (/^[.,;:!?)]/.test(all.slice(at + tag.length)) ? '' : ' '))
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]+)\]\((?!https?:)[^)]*\)/g, '$1')
    .replace(/^\s*(?:>\s*)+/, '')
    .replace(HELD, (_, n: string) => code[Number(n)] ?? '')
    .trim();
}

/**
 * The passage's blocks in order. A paragraph ends at a blank line, a heading, a fence, a table, a
 * list item (each item is a paragraph of its own) or a line of tags alone (an MDX component's
 * boundary); MDX `import`/`export` lines, `{…}` expressions and tables are left out.
 */
export function passageBlocks(markdown: string): PassageBlock[] {
  const blocks: PassageBlock[] = [];
  const lines = markdown.split('\n');
  let paragraph: string[] = [];
  /** The paragraph under way is a list item (`item` on its block). */
  let item = false;
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ').replace(/\s+/g, ' ').trim(), ...(item ? { item: true as const } : {}) });
    paragraph = [];
    item = false;
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const opener = FENCE.exec(raw);
    if (opener) {
      flush();
      const [, indent = '', fence = '', language = ''] = opener;
      const closer = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
      const end = lines.findIndex((l, j) => j > i && closer.test(l));
      const last = end < 0 ? lines.length : end;
      // A block indented in a list item is read from its fence's column.
      const body = lines.slice(i + 1, last).map((l) => (l.slice(0, indent.length).trim() === '' ? l.slice(indent.length) : l.trimStart()));
      blocks.push({ kind: 'code', fence, language, body, complete: end >= 0 });
      i = last;
      continue;
    }
    const line = raw.trim();
    if (!line) {
      flush();
      continue;
    }
    if (isHeading(line)) {
      flush();
      blocks.push({ kind: 'heading', text: headingText(line) });
      continue;
    }
    if (line.startsWith('|')) {
      flush();
      // The table's lines: a header and a delimiter row make it one; a passage cut inside a table leaves rows without their header, which are left out.
      let end = i;
      while (end + 1 < lines.length && lines[end + 1]!.trim().startsWith('|')) end++;
      const table = lines.slice(i, end + 1).map((l) => l.trim());
      if (table.length >= 3 && TABLE_DELIMITER.test(table[1]!)) blocks.push({ kind: 'table', header: table[0]!, delimiter: table[1]!, rows: table.slice(2) });
      i = end;
      continue;
    }
    if (/^(import|export)\s/.test(line) || /^\{.*\}$/.test(line)) {
      flush();
      continue;
    }
    if (LIST_ITEM.test(line)) {
      flush();
      item = true;
    }
    const prose = proseOf(line.replace(LIST_ITEM, ''));
    if (prose) paragraph.push(prose);
    else flush();
  }
  flush();
  return blocks;
}
