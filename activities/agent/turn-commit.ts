import * as v from 'valibot';
import { AGENT_STOP_REASONS, type AgentStopReason, type AgentTurnInput, type AgentTurnResult } from './types.js';
import { toDocsRelative, type Workspace } from './workspace.js';

const NOTES_HEADING = 'Validation notes:';
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

/** What a retried attempt needs back from a pushed turn, carried in the `Quire-Turn-Result` trailer. */
const TurnRecord = v.object({
  title: v.string(),
  summary: v.string(),
  validationErrors: v.array(v.string()),
  stopReason: v.picklist(AGENT_STOP_REASONS),
});
type TurnRecord = v.InferOutput<typeof TurnRecord>;

/**
 * The turn's commit message: prose for reviewers, then git trailers for machines. `Quire-Job` and
 * `Quire-Turn` name the turn; `Quire-Turn-Result` holds its outcome as base64url JSON, so a retried
 * attempt reads it back with git's trailer parser instead of parsing the prose (see `pushedTurn`).
 */
export function commitMessage(input: AgentTurnInput, result: TurnRecord): string {
  const stopped = stopNote(result.stopReason);
  const notes = result.validationErrors.length ? `\n\n${NOTES_HEADING}\n${result.validationErrors.map((e) => `- ${e.replace(/\n+/g, ' ')}`).join('\n')}` : '';
  const record: TurnRecord = { title: result.title, summary: result.summary, validationErrors: result.validationErrors, stopReason: result.stopReason };
  const encoded = Buffer.from(JSON.stringify(record)).toString('base64url');
  return (
    `${result.title}\n\n${result.summary || 'Documentation update.'}${stopped ? `\n\n${stopped}` : ''}${notes}\n\n` +
    `Quire-Job: ${input.jobId}\nQuire-Turn: ${input.turn}\nQuire-Turn-Result: ${encoded}`
  );
}

/** The head commit's trailers as git parses them (`Key: value` per line, folded lines joined); the last of a key wins. */
async function headTrailers(ws: Workspace): Promise<Map<string, string>> {
  const out = await ws.git(['log', '-1', '--format=%(trailers:only,unfold)', 'HEAD']);
  const trailers = new Map<string, string>();
  for (const line of out.split('\n')) {
    const at = line.indexOf(': ');
    if (at > 0) trailers.set(line.slice(0, at), line.slice(at + 2).trim());
  }
  return trailers;
}

function decodeTurnRecord(encoded: string | undefined): TurnRecord | undefined {
  if (!encoded) return undefined;
  try {
    const parsed = v.safeParse(TurnRecord, JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The result of this very turn when an earlier attempt already pushed it (the worker died after the
 * push, before Temporal recorded the result): read back from the branch head instead of asking the
 * model again, which would add a second commit for one turn.
 */
export async function pushedTurn(ws: Workspace, input: AgentTurnInput): Promise<AgentTurnResult | undefined> {
  if (!ws.branchExisted) return undefined;
  const trailers = await headTrailers(ws);
  if (trailers.get('Quire-Job') !== input.jobId || trailers.get('Quire-Turn') !== String(input.turn)) return undefined;
  const record = decodeTurnRecord(trailers.get('Quire-Turn-Result'));
  if (!record) return undefined;
  const changed = await ws.git(['diff', '--name-only', '--no-renames', '-z', 'HEAD~1', 'HEAD']);
  const filesChanged = changed.split('\0').filter(Boolean).map((p) => toDocsRelative(ws, p)).filter((p) => !p.startsWith('..'));
  const commitSha = (await ws.git(['rev-parse', 'HEAD'])).trim();
  // A spent bound is still reported, so the pull request says the turn stopped early.
  const stopReason = BOUNDS.includes(record.stopReason) ? record.stopReason : 'already_pushed';
  return { changed: true, commitSha, filesChanged, title: record.title, summary: record.summary, validationErrors: record.validationErrors, stopReason, steps: 0 };
}
