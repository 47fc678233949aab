import fs from 'node:fs/promises';
import path from 'node:path';
import type { ModelPort } from '../../core/model/index.js';
import type { ActivityServices } from '../services.js';
import { AGENT_ERROR, permanent } from './errors.js';
import { keepAlive } from './activity-context.js';
import { turnMessages } from './messages.js';
import { fallbackTitle, fixRoundPrompt, systemPrompt } from './prompt.js';
import { loadProject, gitAuthFor } from './project.js';
import { runToolLoop, type LoopState } from './tool-loop.js';
import type { ToolContext } from './tools.js';
import { TurnBudget } from './turn-budget.js';
import { commitMessage, pushedTurn } from './turn-commit.js';
import type { AgentStopReason, AgentTurnInput, AgentTurnResult } from './types.js';
import { validateChanges } from './validate.js';
import { changedPaths, commitAndPush, prepareWorkspace, toDocsRelative, type Workspace } from './workspace.js';


async function docsChanges(ws: Workspace): Promise<string[]> {
  const all = await changedPaths(ws);
  return all.map((p) => toDocsRelative(ws, p)).filter((p) => !p.startsWith('..'));
}

/**
 * One agent turn: fresh workspace from the remote, tool loop, fix rounds, one commit, push.
 * `port` is undefined when no model is configured.
 */
export async function runAgentTurn(services: ActivityServices, port: ModelPort | undefined, input: AgentTurnInput): Promise<AgentTurnResult> {
  if (!port)
    throw permanent(
      AGENT_ERROR.modelNotConfigured,
      'no language model is configured: set QUIRE_MODEL_BASE_URL, QUIRE_MODEL_API_KEY and QUIRE_MODEL',
    );
  let step = 0;
  const stopHeartbeats = keepAlive(services.config.agent.heartbeatSeconds, () => ({ step }));
  try {
    return await turn(services, port, input, (s) => (step = s));
  } finally {
    stopHeartbeats();
  }
}

async function turn(services: ActivityServices, port: ModelPort, input: AgentTurnInput, progress: (step: number) => void): Promise<AgentTurnResult> {
  const { agent } = services.config;
  const started = Date.now();
  const project = await loadProject(services, input.projectId);
  const auth = gitAuthFor(services, project);
  const ws = await prepareWorkspace({ dataDir: services.config.dataDir, jobId: input.jobId, branch: input.branch, project, auth });
  const pushed = await pushedTurn(ws, input);
  if (pushed) {
    services.logger.info({ jobId: input.jobId, turn: input.turn, commitSha: pushed.commitSha }, 'agent turn was already pushed by an earlier attempt');
    return pushed;
  }

  const messages = await turnMessages(services, input);
  const agentsMd = await fs.readFile(path.join(ws.root, 'AGENTS.md'), 'utf8').catch(() => undefined);
  const ctx: ToolContext = {
    root: ws.root,
    docsRoot: ws.docsRoot,
    validate: async () => validateChanges(ws, await docsChanges(ws)),
    budget: new TurnBudget({ maxFileBytes: agent.maxFileBytes, maxFilesPerTurn: agent.maxFilesPerTurn, maxTurnBytes: agent.maxTurnBytes }),
  };
  const state: LoopState = {
    messages: [
      { role: 'system', content: systemPrompt({ agentsMd, turn: input.turn }) },
      ...messages.map((m) => ({ role: 'user' as const, content: m.prompt })),
    ],
    steps: 0,
    tokens: 0,
    finish: undefined,
  };
  const bounds = { maxSteps: agent.maxSteps, maxTokens: agent.maxTokens, deadline: started + agent.maxSeconds * 1000, onStep: progress };

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
  const summary = finish?.summary ?? '';
  const filesChanged = await docsChanges(ws);
  const outcome = { title, summary, validationErrors: errors, stopReason, steps: state.steps, filesChanged };
  if (filesChanged.length === 0) return { changed: false, commitSha: null, ...outcome };
  const commitSha = await commitAndPush(ws, commitMessage(input, outcome), project.repository);
  services.logger.info({ jobId: input.jobId, turn: input.turn, commitSha, files: filesChanged.length, stopReason }, 'agent turn pushed');
  return { changed: true, commitSha, ...outcome };
}
