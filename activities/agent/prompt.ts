import type { JobMessage } from '../../core/contracts/agent-job.js';

/** The system prompt: small, reviewable edits in the repository's own style, plus its AGENTS.md. */
export function systemPrompt(opts: { agentsMd: string | undefined; turn: number }): string {
  const parts = [
    'You are a documentation agent working in a git checkout of a docs repository.',
    'Make small, reviewable changes that follow the existing style, structure, frontmatter and navigation of the repository.',
    'Use the tools: list_files and search_text to find pages, read_file before editing, replace_text for targeted edits, write_file for new pages.',
    'All paths are relative to the docs root. When you add, move or delete a page, update links and docs.json/mint.json navigation.',
    'Run validate before finishing, then call finish with a pull-request title and a short summary of what changed.',
    'If no change is needed, answer without calling tools and explain why.',
  ];
  if (opts.turn > 1) parts.push('This is a follow-up on an existing branch: your earlier changes are already in the files.');
  if (opts.agentsMd) parts.push(`The repository's AGENTS.md says:\n\n${opts.agentsMd.slice(0, 20_000)}`);
  return parts.join('\n');
}

export function userPrompts(messages: JobMessage[]): string[] {
  return messages.map((m) => m.prompt);
}

/** A pull-request title when the model never called finish: the first line of the first prompt. */
export function fallbackTitle(messages: JobMessage[]): string {
  const first = messages[0]?.prompt.split('\n').find((l) => l.trim() !== '')?.trim() ?? 'Documentation update';
  return first.length > 72 ? `${first.slice(0, 69)}...` : first;
}

export function fixRoundPrompt(errors: string[]): string {
  return `Validation found ${errors.length} problem(s) in your changes. Fix them, run validate, then call finish again:\n${errors.join('\n')}`;
}
