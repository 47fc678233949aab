import type { PullRecord } from '../../core/forge/index.js';
import { safeMarkdown } from '../../core/markdown/index.js';
import { diffHtml, escapeHtml as escape } from './diff-html.js';
import { mergeHelpHtml } from './merge-help.js';
import { PAGE_STYLE, readableDate } from './page-style.js';
import { pullTurns } from './turns.js';

const markdown = safeMarkdown();

/** The body without its hidden HTML comments (turn markers), which a safe renderer would show as text. */
const render = (text: string) => markdown.render(text.replace(/<!--[\s\S]*?-->/g, ''));

/**
 * Headers of the page: nothing in it may run or load from elsewhere, and the
 * token in its address never leaves in a Referer.
 */
export const PULL_PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'private, no-store',
  'X-Content-Type-Options': 'nosniff',
};

/** The title a reader sees: the job's (the pull request's), or the job's id when the model gave none. */
export function pullTitle(pull: PullRecord): string {
  return pull.title.trim() || `Quire job ${pull.jobId}`;
}

/**
 * The local pull request as a forge shows one: title, state and branches,
 * who opened it and when, each turn's own request and summary (Markdown,
 * rendered safely), how to fetch and merge the branch, and the diff.
 */
export function renderPullPage(pull: PullRecord, diff: string, repository: string): string {
  const title = `${escape(pullTitle(pull))} <span class="meta">#${pull.number}</span>`;
  const turns = pullTurns(pull)
    .map(
      (turn, i) =>
        `<article${i === 0 ? ' class="body"' : ' class="follow-up"'}><h2>${i === 0 ? 'Opened' : 'Follow-up'}, turn ${turn.number} · ${readableDate(turn.createdAt)}</h2>` +
        `<div>${render(turn.body)}</div></article>`,
    )
    .join('\n');
  const updated = pull.updatedAt !== pull.createdAt ? `, updated ${readableDate(pull.updatedAt)}` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,"><title>${escape(pullTitle(pull))} · #${pull.number}</title><style>${PAGE_STYLE}</style></head>
<body>
<header><h1>${title}${pull.draft ? ' (draft)' : ''}</h1>
<p><span class="state ${escape(pull.state)}">${pull.state === 'open' ? 'Open' : 'Closed'}</span>
The Quire agent wants to merge <code>${escape(pull.branch)}</code> into <code>${escape(pull.base)}</code>, for job <code>${escape(pull.jobId)}</code>.
Opened ${readableDate(pull.createdAt)}${updated}.</p></header>
${turns}
${mergeHelpHtml(repository, pull.branch, pull.base)}
<h2>Diff</h2>
${diffHtml(diff)}
</body></html>
`;
}
