import type { PullRecord } from '../../core/forge/index.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain HTML page for a local pull request: title, body, comments and the diff, all escaped. */
export function renderPullPage(pull: PullRecord, diff: string): string {
  const comments = pull.comments.map((c) => `<section><h3>Follow-up ${escape(c.createdAt)}</h3><pre>${escape(c.body)}</pre></section>`).join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>#${pull.number} ${escape(pull.title)}</title></head>
<body>
<h1>#${pull.number} ${escape(pull.title)}${pull.draft ? ' (draft)' : ''}</h1>
<p>${escape(pull.branch)} → ${escape(pull.base)} · ${escape(pull.state)}</p>
<pre>${escape(pull.body)}</pre>
${comments}
<h2>Diff</h2>
<pre>${escape(diff)}</pre>
</body></html>
`;
}
