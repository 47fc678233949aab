import type { JobMessage } from '../../core/contracts/agent-job.js';

/**
 * The system prompt: small, reviewable edits in the repository's own style, plus its instruction files
 * (bounded by the caller) and the system text the job's client sent (bounded by the API).
 */
export function systemPrompt(opts: { instructions: string; turn: number; clientSystem?: string }): string {
  const parts = [
    'You are a documentation agent working in a git checkout of a docs repository.',
    'Make small, reviewable changes that follow the existing style, structure, frontmatter and navigation of the repository.',
    'Use the tools: list_files and search_text to find pages, read_file before editing, replace_text for targeted edits, write_file for new pages.',
    'All paths are relative to the docs root. When you add, move or delete a page, update links and docs.json/mint.json navigation.',
    'For a request of several steps, first write your plan with todo_write and keep it up to date as you work.',
    'Run validate before finishing, then call finish with a pull-request title and a short summary of what changed.',
    'If no change is needed, answer without calling tools and explain why.',
  ];
  if (opts.turn > 1) parts.push('This is a follow-up on an existing branch: your earlier changes are already in the files.');
  if (opts.instructions) parts.push(`The repository's instructions for agents follow; follow them unless the user asks otherwise.\n\n${opts.instructions}`);
  // The client's system text comes last: it is about this job, the repository's is about every job.
  if (opts.clientSystem) parts.push(`The client who started this job adds these instructions:\n\n${opts.clientSystem}`);
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
