import type { SearchHit } from '../../core/retrieval/index.js';

const MAX_SUGGESTIONS = 3;

/** A fenced block of language `suggestions` at the end of an answer (the shape Mintlify's clients render). */
const BLOCK = /\n*```suggestions\n[\s\S]*?\n```[ \t]*\n?/g;

/**
 * The most relevant pages of an answer as a `suggestions` block, one
 * `(Title)[/path]` line per page with a site-relative path, in rank order;
 * '' when no page matched.
 */
export function suggestionsBlock(passages: Array<Pick<SearchHit, 'path' | 'metadata'>>): string {
  const lines: string[] = [];
  // A page's further passages follow its first: its path is encoded once, not once per passage.
  const pages = new Set<string>();
  const seen = new Set<string>();
  for (const hit of passages) {
    if (pages.has(hit.path)) continue;
    pages.add(hit.path);
    const path = encodeURI(hit.path.startsWith('/') ? hit.path : `/${hit.path}`).replace(/[()[\]]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    if (seen.has(path)) continue;
    seen.add(path);
    const title = (hit.metadata.title || hit.path).replace(/\s+/g, ' ').trim();
    lines.push(`(${title})[${path}]`);
    if (lines.length === MAX_SUGGESTIONS) break;
  }
  return lines.length > 0 ? `\`\`\`suggestions\n${lines.join('\n')}\n\`\`\`\n` : '';
}

/** What goes between an answer and its block: always one blank line. */
export function blockSeparator(answer: string): string {
  if (!answer || answer.endsWith('\n\n')) return '';
  return answer.endsWith('\n') ? '\n' : '\n\n';
}

/** An earlier answer without its suggestions: links for the reader, noise for the model. */
export function withoutSuggestions(text: string): string {
  return text.replace(BLOCK, '\n').trim();
}
