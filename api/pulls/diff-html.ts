const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function lineClass(line: string): string {
  if (line.startsWith('diff --git') || line.startsWith('index ') || line.startsWith('--- ') || line.startsWith('+++ ')) return 'meta';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'ctx';
}

/** A unified diff as HTML: one escaped line per element, classed as added, removed, hunk or file header. */
export function diffHtml(diff: string): string {
  if (!diff.trim()) return '<p class="empty">No changes against the base branch.</p>';
  const lines = diff.replace(/\n$/, '').split('\n');
  return `<pre class="diff">${lines.map((l) => `<span class="${lineClass(l)}">${escape(l) || ' '}</span>`).join('')}</pre>`;
}

export { escape as escapeHtml };
