/** The pull request and sign-in pages' styles: a forge's look, no external resources. */
export const PAGE_STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:2rem auto;padding:0 1rem;color:#1f2328}
header p,.meta{color:#59636e}.state{display:inline-block;padding:0 .6em;border-radius:1em;background:#1f883d;color:#fff}
.state.closed{background:#8250df}article{border:1px solid #d1d9e0;border-radius:6px;margin:1rem 0}
article>h2{margin:0;padding:.5rem 1rem;font-size:15px;font-weight:600;background:#f6f8fa;border-bottom:1px solid #d1d9e0;border-radius:6px 6px 0 0}
article>div{padding:0 1rem}pre{overflow:auto;background:#f6f8fa;padding:.75rem;border-radius:6px}code{font:13px ui-monospace,monospace}
.diff span{display:block;font:13px/1.45 ui-monospace,monospace;white-space:pre}.diff .add{background:#dafbe1}
.diff .del{background:#ffebe9}.diff .hunk{color:#0969da;background:#ddf4ff}.diff .meta{font-weight:600;color:#1f2328}
form{display:grid;gap:.5rem;max-width:420px}input{font:inherit;padding:.4rem}button{font:inherit;padding:.4rem .8rem;justify-self:start}
.error{color:#cf222e}[hidden]{display:none}blockquote{margin:.5em 0;padding-left:1em;border-left:4px solid #d1d9e0;color:#59636e}`;

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** A stored timestamp as a reader says it (`26 Nov 2026, 08:40 UTC`), machine-readable in its `datetime`. */
export function readableDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `<time datetime="${date.toISOString()}">${DATE.format(date)} UTC</time>`;
}
