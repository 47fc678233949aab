import type { AgentStopReason, AgentTurnInput, AgentTurnResult } from './types.js';
import { toDocsRelative, type Workspace } from './workspace.js';

const NOTES_HEADING = 'Validation notes:';
/** Stands in for an empty summary in the commit; read back as empty. */
const NO_SUMMARY = 'Documentation update.';
const BOUNDS: AgentStopReason[] = ['max_steps', 'max_tokens', 'max_time'];

/** Why a turn stopped before the model said it was done, in words for commits and pull requests. */
export function stopNote(reason: AgentStopReason): string | undefined {
  switch (reason) {
    case 'max_steps':
      return 'The turn reached its step limit (QUIRE_AGENT_MAX_STEPS) before the model finished; the changes so far are committed.';
    case 'max_tokens':
      return 'The turn reached its token budget (QUIRE_AGENT_MAX_TOKENS) before the model finished; the changes so far are committed.';
    case 'max_time':
      return 'The turn reached its time limit (QUIRE_AGENT_MAX_SECONDS) before the model finished; the changes so far are committed.';
    default:
      return undefined;
  }
}

/**
 * The turn's commit message. The `Quire-Job`/`Quire-Turn` trailers let a retried attempt recognise
 * that this turn was already pushed (see `pushedTurn`).
 */
export function commitMessage(input: AgentTurnInput, result: { title: string; summary: string; validationErrors: string[]; stopReason: AgentStopReason }): string {
  const stopped = stopNote(result.stopReason);
  const notes = result.validationErrors.length ? `\n\n${NOTES_HEADING}\n${result.validationErrors.map((e) => `- ${e.replace(/\n+/g, ' ')}`).join('\n')}` : '';
  return `${result.title}\n\n${result.summary || NO_SUMMARY}${stopped ? `\n\n${stopped}` : ''}${notes}\n\nQuire-Job: ${input.jobId}\nQuire-Turn: ${input.turn}`;
}

function trailer(message: string, key: string): string | undefined {
  const matches = [...message.matchAll(new RegExp(`^${key}: (.+)$`, 'gm'))];
  return matches.at(-1)?.[1]?.trim();
}

/**
 * The result of this very turn when an earlier attempt already pushed it (the worker died after the
 * push, before Temporal recorded the result): read back from the branch head instead of asking the
 * model again, which would add a second commit for one turn.
 */
export async function pushedTurn(ws: Workspace, input: AgentTurnInput): Promise<AgentTurnResult | undefined> {
  if (!ws.branchExisted) return undefined;
  const message = await ws.git(['log', '-1', '--format=%B', 'HEAD']);
  if (trailer(message, 'Quire-Job') !== input.jobId || trailer(message, 'Quire-Turn') !== String(input.turn)) return undefined;
  const [title = '', ...rest] = message.trimEnd().split('\n');
  const body = rest.join('\n').replace(/\n*Quire-Job: .*\nQuire-Turn: .*$/, '').trim();
  const [prose = '', notes = ''] = body.split(`\n\n${NOTES_HEADING}\n`);
  const validationErrors = notes.split('\n').filter((l) => l.startsWith('- ')).map((l) => l.slice(2));
  const changed = await ws.git(['diff', '--name-only', '--no-renames', '-z', 'HEAD~1', 'HEAD']);
  const filesChanged = changed.split('\0').filter(Boolean).map((p) => toDocsRelative(ws, p)).filter((p) => !p.startsWith('..'));
  const commitSha = (await ws.git(['rev-parse', 'HEAD'])).trim();
  // A spent bound is still reported, so the pull request says the turn stopped early.
  const bound = BOUNDS.find((reason) => prose.endsWith(`\n\n${stopNote(reason)}`));
  const written = bound ? prose.slice(0, -`\n\n${stopNote(bound)}`.length) : prose;
  const summary = written === NO_SUMMARY ? '' : written;
  return { changed: true, commitSha, filesChanged, title, summary, validationErrors, stopReason: bound ?? 'already_pushed', steps: 0 };
}
