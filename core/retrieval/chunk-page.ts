import GithubSlugger from 'github-slugger';
import type { PageBlock } from '../docs/index.js';
import type { IndexedChunk, PageMarkers } from './indexed.js';

export interface ChunkOptions {
  /** Characters a chunk aims to stay under (code blocks may exceed it; they are never cut). */
  maxChars: number;
  /** A trailing block up to this size is repeated at the start of the next chunk of a section. */
  overlapChars: number;
}

export const DEFAULT_CHUNKING: ChunkOptions = { maxChars: 1500, overlapChars: 300 };

export interface ChunkablePage extends PageMarkers {
  path: string;
  title: string;
  /** The page's top-level blocks, as `parsePage` reads them. */
  blocks: PageBlock[];
}

interface Block {
  text: string;
  /** Code stays whole and is never used as overlap. */
  atomic: boolean;
}

interface Section {
  anchor: string;
  breadcrumb: string[];
  heading: string;
  blocks: Block[];
}

/** Headings down to this depth start a chunk; deeper ones stay inside their section. */
const SPLIT_DEPTH = 3;

/** Splits a page by headings into chunks that keep the title, breadcrumb and anchor. */
export function chunkPage(page: ChunkablePage, options: ChunkOptions = DEFAULT_CHUNKING): IndexedChunk[] {
  const slugger = new GithubSlugger();
  const sections: Section[] = [{ anchor: '', breadcrumb: [page.title], heading: '', blocks: [] }];
  const stack: Array<{ depth: number; text: string }> = [];
  for (const block of page.blocks) {
    if (block.kind === 'heading') {
      const text = block.text;
      const anchor = slugger.slug(text);
      // An h1 that repeats the title is the top of the page, not a section.
      const top = sections.length === 1 && sections[0]!.blocks.length === 0;
      if (block.depth === 1 && text === page.title && top) continue;
      if (block.depth <= SPLIT_DEPTH) {
        while (stack.length > 0 && stack[stack.length - 1]!.depth >= block.depth) stack.pop();
        stack.push({ depth: block.depth, text });
        const trail = stack.map((s) => s.text).filter((t, i) => !(i === 0 && t === page.title));
        sections.push({ anchor, breadcrumb: [page.title, ...trail], heading: text, blocks: [] });
        continue;
      }
    }
    // A deeper heading stays in its section, as its Markdown.
    const text = block.kind === 'heading' ? `${'#'.repeat(block.depth)} ${block.text}` : block.text;
    if (text) sections[sections.length - 1]!.blocks.push(...splitBlock(block.code, text, options.maxChars));
  }
  return sections.flatMap((section) => packSection(page, section, options));
}

/** The delimiter row under a table's header: `| --- | :-: |`. */
const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s/;

function splitBlock(code: boolean, text: string, maxChars: number): Block[] {
  if (code) return [{ text, atomic: true }];
  if (text.length <= maxChars) return [{ text, atomic: false }];
  const lines = text.split('\n');
  // A long table or list (an error-code reference, a list of flags) is cut between its lines: a
  // sentence's full stop inside a row would cut the row, and a list may have none at all. Each
  // piece of a table keeps its header, so a row is read under its column names.
  if (lines.length > 1 && (TABLE_RULE.test(lines[1]!) || LIST_ITEM.test(lines[0]!))) {
    const header = TABLE_RULE.test(lines[1]!) ? lines.slice(0, 2) : [];
    return splitLines(lines.slice(header.length), header, maxChars);
  }
  // Long prose is cut between sentences: after a full stop and a space, or after Chinese and
  // Japanese 。！？, which no space follows (so none is put back there).
  const pieces: Block[] = [];
  let current = '';
  for (const sentence of text.split(/(?<=[.!?])\s+|(?<=[。！？])/).flatMap((s) => cutSentence(s, maxChars))) {
    if (current && current.length + sentence.length + 1 > maxChars) {
      pieces.push({ text: current, atomic: false });
      current = '';
    }
    current = current ? `${current}${/[。！？]$/.test(current) ? '' : ' '}${sentence}` : sentence;
  }
  if (current) pieces.push({ text: current, atomic: false });
  return pieces;
}

/**
 * A sentence longer than a chunk (prose with no full stop, a pasted log line, Chinese or Japanese
 * with no 。) cut between words, or where there is no space, every `maxChars` characters (never
 * inside a surrogate pair). Whole, it was one chunk of any length: longer than any embedder reads,
 * and a prompt's whole budget for one passage.
 */
function cutSentence(sentence: string, maxChars: number): string[] {
  if (sentence.length <= maxChars) return [sentence];
  const pieces: string[] = [];
  let current = '';
  for (const word of sentence.split(/\s+/)) {
    for (const part of cutWord(word, maxChars)) {
      if (current && current.length + part.length + 1 > maxChars) {
        pieces.push(current);
        current = '';
      }
      current = current ? `${current} ${part}` : part;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/** A word of more than `maxChars` UTF-16 units in pieces of at most that many, each whole characters. */
function cutWord(word: string, maxChars: number): string[] {
  if (word.length <= maxChars) return [word];
  const pieces: string[] = [];
  let current = '';
  for (const char of word) {
    if (current.length + char.length > maxChars) {
      pieces.push(current);
      current = '';
    }
    current += char;
  }
  if (current) pieces.push(current);
  return pieces;
}

function splitLines(lines: string[], header: string[], maxChars: number): Block[] {
  const pieces: Block[] = [];
  const room = maxChars - header.join('\n').length;
  let current: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (current.length > 0 && size + line.length + 1 > room) {
      pieces.push({ text: [...header, ...current].join('\n'), atomic: false });
      current = [];
      size = 0;
    }
    current.push(line);
    size += line.length + 1;
  }
  if (current.length > 0) pieces.push({ text: [...header, ...current].join('\n'), atomic: false });
  return pieces;
}

function packSection(page: ChunkablePage, section: Section, options: ChunkOptions): IndexedChunk[] {
  if (section.blocks.length === 0) return [];
  const chunks: IndexedChunk[] = [];
  const headerLine = section.heading ? `## ${section.heading}\n\n` : '';
  let blocks: Block[] = [];
  let size = 0;
  const flush = () => {
    if (blocks.length === 0) return;
    chunks.push({
      path: page.path,
      anchor: section.anchor,
      title: page.title,
      breadcrumb: section.breadcrumb,
      headings: section.breadcrumb.slice(1).join(' \n'),
      content: headerLine + blocks.map((b) => b.text).join('\n\n'),
      groups: page.groups,
      ...(page.version ? { version: page.version } : {}),
      ...(page.language ? { language: page.language } : {}),
      ...(page.tag ? { tag: page.tag } : {}),
    });
  };
  for (const block of section.blocks) {
    if (blocks.length > 0 && size + block.text.length > options.maxChars) {
      flush();
      const last = blocks[blocks.length - 1]!;
      blocks = !last.atomic && last.text.length <= options.overlapChars ? [last] : [];
      size = blocks.reduce((n, b) => n + b.text.length, 0);
    }
    blocks.push(block);
    size += block.text.length;
  }
  flush();
  return chunks;
}
