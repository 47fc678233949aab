import { stopNote } from '../turn-commit.js';
import type { PullRequestRequest } from '../types.js';

/** Hidden marker so a retried activity recognises the comment it already posted for a turn. */
export function turnMarker(jobId: string, turn: number): string {
  return `<!-- quire:${jobId}:turn:${turn} -->`;
}

/** Characters of each prompt quoted: a forge caps a description (GitHub at 65,536 characters) and prompts may be 100,000. */
const QUOTED_PROMPT_CHARS = 1000;

function quote(prompt: string): string {
  const cut = prompt.length > QUOTED_PROMPT_CHARS ? `${prompt.slice(0, QUOTED_PROMPT_CHARS)} […]` : prompt;
  return cut.split('\n').map((l) => `> ${l}`).join('\n');
}

function list(items: string[], empty: string): string {
  return items.length ? items.map((i) => `- ${i.replace(/\n+/g, ' ')}`).join('\n') : empty;
}

/** The pull-request body (first turn) or follow-up comment (later turns). */
export function pullRequestBody(input: PullRequestRequest): string {
  const sections = [
    input.summary || 'Documentation update by the Quire agent.',
    `### Requested\n\n${input.prompts.map(quote).join('\n\n')}`,
    `### Files changed\n\n${list(input.filesChanged.map((f) => `\`${f}\``), '_none_')}`,
  ];
  const stopped = input.stopReason && stopNote(input.stopReason);
  if (stopped) sections.push(`### Stopped early\n\n${stopped} Send a follow-up message to continue.`);
  if (input.validationErrors.length)
    sections.push(`### Validation notes\n\nThese problems remained after the fix rounds:\n\n${list(input.validationErrors, '')}`);
  sections.push(`_Quire job \`${input.jobId}\`, turn ${input.turn}._\n${turnMarker(input.jobId, input.turn)}`);
  return sections.join('\n\n');
}
