import { CancelledFailure } from '@temporalio/common';
import type { Todo } from '../../core/jobs/index.js';
import type { ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import { PermanentModelError, type ChatCompletion, type ChatMessage, type ModelPort } from '../../core/model/index.js';
import { modelFailure } from '../model-failure.js';
import { activitySignal, heartbeat } from '../activity-context.js';
import { AGENT_TOOLS } from './tool-definitions.js';
import { executeTool, type ToolContext, type ToolOutcome } from './tools.js';
import type { AgentStopReason } from './types.js';

export interface LoopBounds {
  maxSteps: number;
  maxTokens: number;
  /** Epoch milliseconds when the turn must stop. */
  deadline: number;
  /** Told each step number, for the timer heartbeats' details. */
  onStep?: (step: number) => void;
  /** Told each tool call and its outcome, for the job's event feed. */
  onToolCall?: (name: string, rawArgs: string, outcome: ToolOutcome, step: number) => void;
}

/** State carried across the main loop and its fix rounds. */
export interface LoopState {
  messages: ChatMessage[];
  steps: number;
  tokens: number;
  finish: { title: string; summary: string } | undefined;
  /** The plan as the model last wrote it this turn; undefined until it writes one. */
  todos: Todo[] | undefined;
}

/** Tool calls of one model reply that run; the rest are answered with a refusal. */
export const MAX_CALLS_PER_REPLY = 20;
/** Characters of tool output one reply gets back, all its calls together (about 50,000 tokens). */
export const MAX_REPLY_OUTPUT_CHARS = 200_000;

/**
 * What one model reply's tool calls may bring back. Each output joins the next request whole, so
 * a reply asking for many large reads at once would make a request beyond any model's context,
 * which the provider refuses (and the turn's edits would go with it): past the bounds, calls are
 * answered with a refusal the model can act on, and an output is cut to what is left.
 */
class ReplyAllowance {
  private calls = 0;
  private chars = 0;

  refusal(): ToolOutcome | undefined {
    this.calls += 1;
    if (this.calls > MAX_CALLS_PER_REPLY)
      return { output: `error: not run: one reply may make at most ${MAX_CALLS_PER_REPLY} tool calls; call it again in your next reply` };
    if (this.chars >= MAX_REPLY_OUTPUT_CHARS)
      return { output: `error: not run: this reply's tool results already reached ${MAX_REPLY_OUTPUT_CHARS} characters; call it again in your next reply, with fewer or narrower reads at once` };
    return undefined;
  }

  take(outcome: ToolOutcome): ToolOutcome {
    const left = MAX_REPLY_OUTPUT_CHARS - this.chars;
    this.chars += Math.min(outcome.output.length, left);
    if (outcome.output.length <= left) return outcome;
    return { ...outcome, output: `${outcome.output.slice(0, left)}\n[cut: this reply's tool results reached ${MAX_REPLY_OUTPUT_CHARS} characters; read the rest with start_line in your next reply]` };
  }
}

/**
 * Runs the model's tool loop until it calls finish, answers without tool calls, or a bound is
 * reached. Heartbeats every step (run-turn also heartbeats on a timer during long calls); archive
 * cancels the activity, which aborts the model request.
 */
export async function runToolLoop(
  port: ModelPort,
  model: string,
  ctx: ToolContext,
  state: LoopState,
  bounds: LoopBounds,
): Promise<AgentStopReason> {
  const cancel = activitySignal();
  for (;;) {
    if (state.steps >= bounds.maxSteps) return 'max_steps';
    if (state.tokens >= bounds.maxTokens) return 'max_tokens';
    const remaining = bounds.deadline - Date.now();
    if (remaining <= 0) return 'max_time';
    heartbeat({ step: state.steps });
    state.steps += 1;
    bounds.onStep?.(state.steps);
    const timeout = AbortSignal.timeout(remaining);
    const signal = cancel ? AbortSignal.any([cancel, timeout]) : timeout;
    let completion: ChatCompletion;
    try {
      // The turn's deadline bounds the call, not the client's 600 s: a model that never answers ends the turn
      // at its time bound (keeping what it did), rather than failing it as unavailable to be retried six times.
      completion = await port.chat({ model, messages: state.messages, tools: AGENT_TOOLS, signal, timeoutMs: remaining + 5_000 });
    } catch (err) {
      if (cancel?.aborted) throw new CancelledFailure('the agent turn was cancelled');
      if (timeout.aborted) return 'max_time';
      // The conversation outgrew the model's context: a bound, as the token budget is; the turn
      // keeps (and commits) what it did instead of failing with its edits.
      if (err instanceof PermanentModelError && err.contextTooLong) return 'max_tokens';
      throw modelFailure(err);
    }
    const usage = completion.usage;
    const choice = completion.choices[0];
    const message = choice?.message;
    state.tokens += usage?.total_tokens ?? Math.ceil(JSON.stringify(message ?? '').length / 4);
    // A call without its type is read as a function call (some OpenAI-compatible servers leave it out).
    const calls = (message?.tool_calls ?? []).filter((c): c is ChatCompletionMessageFunctionToolCall => (c.type ?? 'function') === 'function' && 'function' in c);
    state.messages.push({ role: 'assistant', content: message?.content ?? null, ...(calls.length ? { tool_calls: calls } : {}) });
    if (calls.length === 0) return 'no_tool_calls';
    const reply = new ReplyAllowance();
    for (const call of calls) {
      const outcome = reply.refusal() ?? reply.take(await executeTool(ctx, call.function.name, call.function.arguments));
      state.messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.output });
      bounds.onToolCall?.(call.function.name, call.function.arguments, outcome, state.steps);
      if ('finish' in outcome) state.finish = outcome.finish;
      if ('todos' in outcome) state.todos = outcome.todos;
    }
    // The plan rides on the heartbeat, where `temporal workflow describe` shows it during the turn.
    heartbeat({ step: state.steps, todos: state.todos });
    if (state.finish) return 'finish';
    if (choice?.finish_reason === 'length' && state.tokens >= bounds.maxTokens) return 'max_tokens';
  }
}
