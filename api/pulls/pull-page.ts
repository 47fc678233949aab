import type { PullRecord } from '../../core/forge/index.js';
import { safeMarkdown } from '../../core/markdown/index.js';
import { diffHtml, escapeHtml as escape } from './diff-html.js';

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

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:2rem auto;padding:0 1rem;color:#1f2328}
header p{color:#59636e}.state{display:inline-block;padding:0 .6em;border-radius:1em;background:#1f883d;color:#fff}
.state.closed{background:#8250df}article{border:1px solid #d1d9e0;border-radius:6px;padding:0 1rem;margin:1rem 0}
pre{overflow:auto;background:#f6f8fa;padding:.75rem;border-radius:6px}code{font:13px ui-monospace,monospace}
.diff span{display:block;font:13px/1.45 ui-monospace,monospace;white-space:pre}.diff .add{background:#dafbe1}
.diff .del{background:#ffebe9}.diff .hunk{color:#0969da;background:#ddf4ff}.diff .meta{font-weight:600}`;

/** The local pull request as a page: title, state, the body and follow-ups as Markdown (rendered safely), and the diff. */
export function renderPullPage(pull: PullRecord, diff: string): string {
  const comments = pull.comments
    .map((c) => `<article><h3>Follow-up <time>${escape(c.createdAt)}</time></h3>${render(c.body)}</article>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,"><title>#${pull.number} ${escape(pull.title)}</title><style>${STYLE}</style></head>
<body>
<header><h1>#${pull.number} ${escape(pull.title)}${pull.draft ? ' (draft)' : ''}</h1>
<p><span class="state ${escape(pull.state)}">${escape(pull.state)}</span> <code>${escape(pull.branch)}</code> → <code>${escape(pull.base)}</code></p></header>
<article class="body">${render(pull.body)}</article>
${comments}
<h2>Diff</h2>
${diffHtml(diff)}
</body></html>
`;
}
