import type { PullRecord } from '../../core/forge/index.js';

/** One turn of the agent on the pull request: its description (turn 1) or follow-up comment. */
export interface PullTurn {
  /** The agent's turn number (a turn that changed nothing leaves no comment). */
  number: number;
  /** The turn's Markdown, its "Requested" section narrowed to this turn's own prompts. */
  body: string;
  createdAt: string;
}

/** The hidden marker each turn's text ends with (activities/agent/forge/pr-body.ts). */
const TURN_MARKER = /<!-- quire:.+?:turn:(\d+) -->/;
const REQUESTED = /(^|\n)### Requested\n\n([\s\S]*?)(?=\n\n### |\n\n_Quire job |$)/;

/** The quoted prompts of a body's "Requested" section, one Markdown blockquote each. */
function requestedPrompts(body: string): string[] {
  const section = REQUESTED.exec(body)?.[2];
  return section ? section.split('\n\n').filter((block) => block.startsWith('>')) : [];
}

/** How many prompts `current` starts with that `previous` ended with: the requests an earlier turn already showed. */
function overlap(previous: string[], current: string[]): number {
  for (let n = Math.min(previous.length, current.length); n > 0; n--) {
    if (previous.slice(previous.length - n).every((prompt, i) => prompt === current[i])) return n;
  }
  return 0;
}

/**
 * The pull request's turns, each with only its own request. A follow-up's
 * comment quotes every prompt the job has handled so far (a window of the
 * latest, oldest first), so the prompts the previous turn already quoted are
 * dropped; a comment that quotes only its own is left as it is.
 */
export function pullTurns(pull: PullRecord): PullTurn[] {
  const bodies = [{ body: pull.body, createdAt: pull.createdAt }, ...pull.comments];
  let previous: string[] = [];
  return bodies.map(({ body, createdAt }, i) => {
    const prompts = requestedPrompts(body);
    const own = prompts.slice(overlap(previous, prompts));
    previous = prompts;
    const narrowed = own.length > 0 && own.length < prompts.length ? body.replace(REQUESTED, (_m, lead: string) => `${lead}### Requested\n\n${own.join('\n\n')}`) : body;
    return { number: Number(TURN_MARKER.exec(body)?.[1] ?? i + 1), body: narrowed, createdAt };
  });
}
