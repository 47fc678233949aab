import type { JobEventData, JobEventType, Todo } from '../../core/jobs/index.js';
import type { Logger } from '../../core/logger.js';
import type { EventPublisher } from '../events/index.js';
import { TOOL_NAMES, type ToolOutcome } from './tools.js';

/** Events one turn attempt logs at most: a runaway loop must not flood the feed or the webhooks. */
export const MAX_TURN_EVENTS = 300;
/** How long the end of a turn waits for its events to be logged before it reports anyway. */
const FLUSH_MS = 10_000;
const MAX_ERROR_CHARS = 200;

/** A tool call as the feed shows it: the tool, the paths it named, and whether it worked; never contents. */
export function toolStepData(name: string, rawArgs: string, outcome: ToolOutcome, step: number): JobEventData {
  let args: unknown;
  try {
    args = JSON.parse(rawArgs);
  } catch {
    args = undefined;
  }
  const pathOf = (key: string): string | undefined => {
    if (typeof args !== 'object' || args === null || !(key in args)) return undefined;
    const value: unknown = Reflect.get(args, key);
    return typeof value === 'string' ? value.slice(0, 300) : undefined;
  };
  const failed = outcome.output.startsWith('error: ');
  const paths = ['path', 'from', 'to'].flatMap((k) => {
    const p = pathOf(k);
    return p === undefined ? [] : [[k, p] as const];
  });
  return {
    step,
    tool: TOOL_NAMES.includes(name) ? name : 'unknown',
    ...Object.fromEntries(paths),
    ok: !failed,
    // Tool errors name paths and limits, never file contents (see ToolError's messages).
    ...(failed ? { error: outcome.output.slice('error: '.length).split('\n')[0]?.slice(0, MAX_ERROR_CHARS) } : {}),
  };
}

/**
 * The events of one running turn (tool steps, plan changes), logged in order on a chain of their
 * own so the turn never waits on the log; failures are logged and dropped, never thrown.
 */
export class TurnEvents {
  private chain: Promise<void> = Promise.resolve();
  private count = 0;

  constructor(
    private readonly publisher: EventPublisher,
    private readonly turn: { jobId: string; projectId: string; turn: number; attempt: number },
    private readonly logger: Logger,
  ) {}

  toolStep(name: string, rawArgs: string, outcome: ToolOutcome, step: number): void {
    this.emit('tool.step', toolStepData(name, rawArgs, outcome, step));
  }

  todosChanged(todos: Todo[]): void {
    this.emit('todos.changed', { todos: todos.map((t) => ({ id: t.id, content: t.content, status: t.status })) });
  }

  /** Resolves once the events so far are logged, or after a bounded wait. */
  async flush(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.chain, new Promise<void>((r) => (timer = setTimeout(r, FLUSH_MS)))]);
    clearTimeout(timer);
  }

  private emit(type: JobEventType, data: JobEventData): void {
    if (this.count >= MAX_TURN_EVENTS) return;
    this.count += 1;
    const { jobId, projectId, turn, attempt } = this.turn;
    // A retried attempt really ran its steps again: its events are new ones, keyed by attempt.
    const key = `turn:${turn}:attempt:${attempt}:event:${this.count}`;
    const time = new Date().toISOString();
    this.chain = this.chain
      .then(() => this.publisher.publish({ key, type, time, jobId, projectId, data: { turn, ...data } }))
      .then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err, jobId, turn, type }, 'job event not logged'),
      );
  }
}
