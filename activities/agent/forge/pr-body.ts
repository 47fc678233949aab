import { withoutReaderQuotes } from '../../../core/analytics/index.js';
import { stopNote } from '../turn-commit.js';
import type { PullRequestRequest } from '../types.js';

/** Hidden marker so a retried activity recognises the comment it already posted for a turn. */
export function turnMarker(jobId: string, turn: number): string {
  return `<!-- quire:${jobId}:turn:${turn} -->`;
}

/** Characters of each prompt quoted: a forge caps a description (GitHub at 65,536 characters) and prompts may be 100,000. */
const QUOTED_PROMPT_CHARS = 1000;

/** A request as a Markdown quote, cut to QUOTED_PROMPT_CHARS, without the readers' questions a gap's job quotes to the agent. */
function quote(request: string): string {
  const prompt = withoutReaderQuotes(request);
  const cut = prompt.length > QUOTED_PROMPT_CHARS ? `${prompt.slice(0, QUOTED_PROMPT_CHARS)} […]` : prompt;
  return cut.split('\n').map((l) => `> ${l}`).join('\n');
}

/** Files listed, and characters of quoted requests, at most: with the rest, a body stays well under GitHub's 65,536 characters. */
const LISTED_FILES = 200;
const QUOTED_CHARS = 20_000;

function list(items: string[], empty: string, most = Infinity): string {
  if (items.length === 0) return empty;
  const shown = items.slice(0, most).map((i) => `- ${i.replace(/\n+/g, ' ')}`);
  if (items.length > most) shown.push(`- … and ${items.length - most} more`);
  return shown.join('\n');
}

/** The latest requests that fit QUOTED_CHARS, oldest first, saying how many earlier ones are left out. */
function requested(prompts: string[]): string {
  const quotes: string[] = [];
  let size = 0;
  for (const prompt of [...prompts].reverse()) {
    const q = quote(prompt);
    if (quotes.length > 0 && size + q.length > QUOTED_CHARS) break;
    quotes.unshift(q);
    size += q.length;
  }
  const left = prompts.length - quotes.length;
  return [...(left > 0 ? [`_${left} earlier request${left === 1 ? '' : 's'} not quoted._`] : []), ...quotes].join('\n\n');
}

/** The pull-request body (first turn) or follow-up comment (later turns). */
export function pullRequestBody(input: PullRequestRequest): string {
  const sections = [
    input.summary || 'Documentation update by the Quire agent.',
    `### Requested\n\n${requested(input.prompts)}`,
    `### Files changed\n\n${list(input.filesChanged.map((f) => `\`${f}\``), '_none_', LISTED_FILES)}`,
  ];
  if (input.instructionFiles?.length)
    sections.push(`### Repository instructions\n\nThe agent followed ${input.instructionFiles.map((f) => `\`${f}\``).join(', ')}.`);
  const stopped = input.stopReason && stopNote(input.stopReason);
  if (stopped) sections.push(`### Stopped early\n\n${stopped} Send a follow-up message to continue.`);
  if (input.validationErrors.length)
    sections.push(`### Validation notes\n\nThese problems remained after the fix rounds:\n\n${list(input.validationErrors, '')}`);
  sections.push(`_Quire job \`${input.jobId}\`, turn ${input.turn}._\n${turnMarker(input.jobId, input.turn)}`);
  return sections.join('\n\n');
}
