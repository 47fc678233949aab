import { checkTarget } from '../../core/http/index.js';
import { boundSummary, boundTitle, boundTodos, printable, readJobPreamble } from '../../core/jobs/index.js';
import type { ChatMessage, ModelPort } from '../../core/model/index.js';
import type { ActivityServices } from '../services.js';
import { AGENT_ERROR, permanent } from './errors.js';
import { activityAttempt, keepAlive } from '../activity-context.js';
import type { EventPublisher } from '../events/index.js';
import { turnMessages } from './messages.js';
import { fallbackTitle, fixRoundPrompt, systemPrompt } from './prompt.js';
import { loadProject, gitAuthFor, type GitAuthDeps, type ProjectDeps } from './project.js';
import { readRepoInstructions } from './repo-instructions.js';
import { runToolLoop, type LoopState } from './tool-loop.js';
import type { ToolContext, ToolOutcome } from './tools.js';
import { TurnBudget } from './turn-budget.js';
import { TurnEvents } from './turn-events.js';
import { commitMessage, pushedTurn, stopNote } from './turn-commit.js';
import type { AgentStopReason, AgentTurnInput, AgentTurnResult } from './types.js';
import { validateChanges } from './validate.js';
import { changedPaths, commitAndPush, isIgnored, prepareWorkspace, sweepWorkspaces, toDocsRelative, type Workspace } from './workspace.js';


/** The model's last words to the user: the text of its last answer that had any. */
function lastAnswer(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'assistant' && typeof m.content === 'string' && m.content.trim() !== '') return m.content;
  }
  return '';
}

/** Why a turn changed nothing, in the model's words when it gave any. */
function noChangeSummary(stopReason: AgentStopReason, said: string): string {
  const bound = stopNote(stopReason)?.replace(/; the changes so far are committed\.$/, '.');
  const why = bound ?? (said.trim() || 'The model ended the turn without editing any file.');
  return `No files were changed. ${bound && said.trim() ? `${bound} ${said}` : why}`;
}

async function docsChanges(ws: Workspace): Promise<string[]> {
  const all = await changedPaths(ws);
  return all.map((p) => toDocsRelative(ws, p)).filter((p) => !p.startsWith('..'));
}

/** What a turn uses: the project and its credentials, the prompts and the preamble of the job. */
export type TurnDeps = Pick<ActivityServices, 'config' | 'logger' | 'jobs'> & ProjectDeps & GitAuthDeps;

/**
 * One agent turn: fresh workspace from the remote, tool loop, fix rounds, one commit, push.
 * `port` is undefined when no model is configured.
 */
export async function runAgentTurn(
  services: TurnDeps,
  port: ModelPort | undefined,
  publisher: EventPublisher,
  input: AgentTurnInput,
): Promise<AgentTurnResult> {
  if (!port)
    throw permanent(
      AGENT_ERROR.modelNotConfigured,
      'no language model is configured: set QUIRE_MODEL_BASE_URL, QUIRE_MODEL_API_KEY and QUIRE_MODEL',
    );
  let step = 0;
  const stopHeartbeats = keepAlive(services.config.agent.heartbeatSeconds, () => ({ step }));
  const events = new TurnEvents(publisher, { jobId: input.jobId, projectId: input.projectId, turn: input.turn, attempt: activityAttempt() }, services.logger);
  try {
    return await turn(services, port, input, events, (s) => (step = s));
  } finally {
    // The turn's steps reach the feed before the workflow logs the turn's end.
    await events.flush();
    stopHeartbeats();
  }
}

async function turn(
  services: TurnDeps,
  port: ModelPort,
  input: AgentTurnInput,
  events: TurnEvents,
  progress: (step: number) => void,
): Promise<AgentTurnResult> {
  const { agent } = services.config;
  const started = Date.now();
  const project = await loadProject(services, input.projectId);
  const target = services.config.allowPrivateTargets ? {} : await checkTarget(project.repository);
  if (target.problem) throw permanent(AGENT_ERROR.forgeMisconfigured, `the repository of project ${project.id} ${target.problem}`);
  const auth = gitAuthFor(services, project, target.pin);
  const ws = await prepareWorkspace({ dataDir: services.config.dataDir, jobId: input.jobId, branch: input.branch, project, auth });
  // The checkouts of jobs long idle (archived by now) go, or every job's would stay on disk for good.
  await sweepWorkspaces(services.config.dataDir, services.config.retention.jobIdleArchiveDays);
  const pushed = await pushedTurn(ws, input);
  if (pushed) {
    services.logger.info({ jobId: input.jobId, turn: input.turn, commitSha: pushed.commitSha }, 'agent turn was already pushed by an earlier attempt');
    return pushed;
  }

  const [messages, preamble] = await Promise.all([turnMessages(services, input), readJobPreamble(services.jobs, input.projectId, input.jobId)]);
  const instructions = await readRepoInstructions(ws.root, agent.instructionsMaxChars);
  const ctx: ToolContext = {
    root: ws.root,
    docsRoot: ws.docsRoot,
    validate: async () => validateChanges(ws, await docsChanges(ws)),
    isIgnored: (file) => isIgnored(ws, file),
    budget: new TurnBudget({ maxFileBytes: agent.maxFileBytes, maxFilesPerTurn: agent.maxFilesPerTurn, maxTurnBytes: agent.maxTurnBytes }),
  };
  const state: LoopState = {
    messages: [
      { role: 'system', content: systemPrompt({ instructions: instructions.text, turn: input.turn, clientSystem: preamble?.system }) },
      // The conversation the client had before its first prompt; later turns start from the files instead.
      ...(input.turn === 1 ? (preamble?.earlier ?? []) : []),
      ...messages.map((m) => ({ role: 'user' as const, content: m.prompt })),
    ],
    steps: 0,
    tokens: 0,
    finish: undefined,
    todos: undefined,
  };
  // The model's own answers start here: an assistant message the client sent is not its summary.
  const opening = state.messages.length;
  const bounds = {
    maxSteps: agent.maxSteps,
    maxTokens: agent.maxTokens,
    deadline: started + agent.maxSeconds * 1000,
    onStep: progress,
    onToolCall: (name: string, rawArgs: string, outcome: ToolOutcome, step: number) => {
      events.toolStep(name, rawArgs, outcome, step);
      if ('todos' in outcome) events.todosChanged(outcome.todos);
    },
  };

  let stopReason: AgentStopReason = await runToolLoop(port, input.model, ctx, state, bounds);
  let finish = state.finish;
  let errors = await ctx.validate();
  // Feed remaining problems back only when the model stopped on its own; a spent bound ends the turn.
  for (let round = 0; round < agent.fixRounds && errors.length > 0 && (stopReason === 'finish' || stopReason === 'no_tool_calls'); round++) {
    state.messages.push({ role: 'user', content: fixRoundPrompt(errors) });
    state.finish = undefined;
    stopReason = await runToolLoop(port, input.model, ctx, state, bounds);
    finish = state.finish ?? finish;
    errors = await ctx.validate();
  }

  const title = finish?.title ?? fallbackTitle(messages);
  const said = finish?.summary || lastAnswer(state.messages.slice(opening));
  const filesChanged = await docsChanges(ws);
  const outcome = {
    title: boundTitle(title),
    summary: boundSummary(filesChanged.length === 0 ? noChangeSummary(stopReason, said) : said),
    validationErrors: errors.map(printable),
    stopReason,
    steps: state.steps,
    filesChanged,
    instructionFiles: instructions.files,
    ...(state.todos ? { todos: boundTodos(state.todos) } : {}),
  };
  if (filesChanged.length === 0) return { changed: false, commitSha: null, ...outcome };
  const commitSha = await commitAndPush(ws, commitMessage(input, outcome), project.repository);
  services.logger.info({ jobId: input.jobId, turn: input.turn, commitSha, files: filesChanged.length, stopReason }, 'agent turn pushed');
  return { changed: true, commitSha, ...outcome };
}
