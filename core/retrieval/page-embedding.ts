import { withoutCutSurrogate } from '../unicode.js';
import type { IndexedPage } from './indexed.js';

/**
 * Characters of a page's embedding text. multilingual-e5-small reads 512
 * tokens; about 1,200 characters of English stay under that, so one page is
 * one window of the model: the cost of indexing grows with pages, not with
 * how long they are.
 */
export const PAGE_TEXT_CHARS = 1200;

/**
 * Markdown as the prose a reader sees: code blocks dropped, link targets,
 * table rules and emphasis marks removed. The embedder's cost grows with its
 * tokens, and these cost many tokens (a URL, a row of `| --- |`, a shell
 * command) for little of what a reader's question is about.
 */
export function embeddingProse(markdown: string): string {
  return markdown
    .replace(/^ *(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ *\1[^\n]*$/gm, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^ *\|?(?: *:?-{3,}:? *\|?)+ *$/gm, '')
    .replace(/^ *\| *(.*?) *\|? *$/gm, (_, cells: string) => cells.split(/ *\| */).join('; '))
    .replace(/^ {0,3}#{1,6} +/gm, '')
    .replace(/^ *(?:[-*+]|\d+\.) +/gm, '')
    .replace(/^ *> ?/gm, '')
    .replace(/[`*]+|(?<!\w)_+|_+(?!\w)/g, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n(?: ?\n)+/g, '\n')
    .trim();
}

/**
 * The text a page is embedded as: what describes it as a whole (title,
 * description, keywords and navigation groups, which its first chunk's
 * headings carry), the headings of its sections, then its opening prose
 * (see embeddingProse). One vector per page: on 2 CPU cores a local model
 * embeds a few passages a second, too few for every chunk of a site in the
 * indexing budget, and a reader's paraphrase is closest to what the page says
 * it is about.
 */
export function pageEmbeddingText(page: Pick<IndexedPage, 'title' | 'chunks'>): string {
  const first = page.chunks[0];
  const sections = [...new Set(page.chunks.map((c) => c.breadcrumb.slice(1).join(' > ')).filter(Boolean))];
  const head = [page.title, first?.headings ?? '', sections.length ? `Sections: ${sections.join('; ')}` : ''].filter(Boolean).join('\n');
  const body = embeddingProse(page.chunks.map((c) => c.content).join('\n\n'));
  const text = `${head}\n\n${body}`;
  // Never inside a character: a lone surrogate makes a strict embeddings provider refuse the whole request.
  return text.length <= PAGE_TEXT_CHARS ? text : withoutCutSurrogate(text.slice(0, PAGE_TEXT_CHARS));
}
