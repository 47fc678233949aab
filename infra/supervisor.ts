import type { ChildProcess } from 'node:child_process';
import { ChildRun, type ChildSpec, type RunEnd } from './supervised-process.js';

/** The first restart waits this long; each failure in a row doubles it, up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
/** A run that was ready this long before it ended restarts from the shortest delay again. */
const STABLE_MS = 60_000;
/** Runs in a row that never became ready: the child cannot start, and the stack gives up. */
export const MAX_FAILED_STARTS = 5;
/** Ends of one child within CRASH_WINDOW_MS: it keeps crashing, and the stack gives up. */
const MAX_ENDS = 10;
const CRASH_WINDOW_MS = 10 * 60_000;

/** When to run a child again after a run ended, or why not to. */
export class RestartPolicy {
  private failuresInARow = 0;
  private failedStarts = 0;
  private ends: number[] = [];

  next(end: RunEnd, now: number): { delayMs: number } | { giveUp: string } {
    if (end.readyAt !== undefined && now - end.readyAt >= STABLE_MS) this.failuresInARow = 0;
    this.failedStarts = end.wasReady ? 0 : this.failedStarts + 1;
    this.ends = [...this.ends.filter((t) => now - t < CRASH_WINDOW_MS), now];
    if (this.failedStarts >= MAX_FAILED_STARTS) return { giveUp: `it failed to start ${this.failedStarts} times in a row` };
    if (this.ends.length >= MAX_ENDS) return { giveUp: `it ended ${this.ends.length} times within ${CRASH_WINDOW_MS / 60_000} minutes` };
    const delayMs = Math.min(FIRST_DELAY_MS * 2 ** this.failuresInARow, MAX_DELAY_MS);
    this.failuresInARow++;
    return { delayMs };
  }
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * The start command's processes (the Temporal dev server, the worker, the API…), each described by
 * a ChildSpec. Each starts once the children it needs are ready. Until `keepRunning()` the first
 * child that cannot start ends the stack (start-up fails fast, with the reason); after it, a child
 * that ends is started again with backoff (after the children it needs are ready again) while the
 * others carry on, until its RestartPolicy gives up. `failed` then says why the stack must stop.
 */
export class Supervisor {
  private readonly children = new Map<string, SupervisedChild>();
  private restarting = false;
  private readonly failure = deferred<string>();
  /** Resolves with the reason the stack cannot go on; the caller stops it. */
  readonly failed = this.failure.promise;
  private stopping: Promise<void> | undefined;

  constructor(
    specs: readonly ChildSpec[],
    private readonly log: (line: string) => void,
  ) {
    for (const spec of specs) {
      for (const need of spec.needs ?? []) {
        if (!specs.some((s) => s.name === need)) throw new Error(`${spec.name} needs ${need}, which the stack does not run`);
      }
      this.children.set(spec.name, new SupervisedChild(spec, this));
    }
  }

  /** Starts every child; resolves once all are ready (rejects with the reason if one cannot start). */
  async start(): Promise<void> {
    for (const c of this.children.values()) c.supervise();
    const failed = this.failed.then((reason) => Promise.reject(new Error(reason)));
    await Promise.race([Promise.all([...this.children.values()].map((c) => c.whenReady())), failed]);
  }

  /** From now on a child that ends is started again. */
  keepRunning(): void {
    this.restarting = true;
  }

  /** Stops every child, each after the children that need it (the API and worker drain before Temporal stops). */
  stop(): Promise<void> {
    if (this.stopping) return this.stopping;
    const stops = new Map<string, Promise<void>>();
    const stopOne = (name: string): Promise<void> => {
      let stop = stops.get(name);
      if (!stop) {
        const dependents = [...this.children.values()].filter((c) => c.spec.needs?.includes(name));
        stop = Promise.all(dependents.map((d) => stopOne(d.spec.name))).then(() => this.child(name).stop());
        stops.set(name, stop);
      }
      return stop;
    };
    this.stopping = Promise.all([...this.children.keys()].map(stopOne)).then(() => undefined);
    return this.stopping;
  }

  /** @internal for SupervisedChild */
  child(name: string): SupervisedChild {
    const c = this.children.get(name);
    if (!c) throw new Error(`no child named ${name}`);
    return c;
  }

  /** @internal for SupervisedChild: a run ended; what now. */
  ended(spec: ChildSpec, end: RunEnd, policy: RestartPolicy): number | undefined {
    const what = `the ${spec.name} ${end.reason}`;
    const hint = spec.hint ? `; ${spec.hint}` : '';
    if (!this.restarting) {
      this.failure.resolve(`${what}${hint}`);
      return undefined;
    }
    const next = policy.next(end, Date.now());
    if ('giveUp' in next) {
      this.failure.resolve(`gave up on the ${spec.name}: ${next.giveUp} (last: ${end.reason})${hint}`);
      return undefined;
    }
    this.log(`quire: ${what}; restarting it in ${next.delayMs / 1000}s`);
    return next.delayMs;
  }

  /** @internal */
  say(line: string): void {
    this.log(line);
  }
}

/** One child's life: run, wait to be needed again, run again. */
class SupervisedChild {
  private ready = false;
  private readyGate = deferred<void>();
  private current: ChildRun | undefined;
  private loop: Promise<void> | undefined;
  private readonly stopped = new AbortController();

  constructor(
    readonly spec: ChildSpec,
    private readonly supervisor: Supervisor,
  ) {}

  whenReady(): Promise<void> {
    return this.readyGate.promise;
  }

  supervise(): void {
    this.loop = this.runAgainAndAgain();
  }

  private async runAgainAndAgain(): Promise<void> {
    const policy = new RestartPolicy();
    for (let attempt = 0; ; attempt++) {
      await this.neededReady();
      if (this.stopped.signal.aborted) return;
      const run = new ChildRun(this.spec, {
        spawned: (p: ChildProcess) => {
          if (attempt > 0) this.supervisor.say(`quire: the ${this.spec.name} started again (pid ${p.pid})`);
        },
        ready: () => {
          this.ready = true;
          this.readyGate.resolve();
          if (attempt > 0) this.supervisor.say(`quire: the ${this.spec.name} is ready again`);
        },
      });
      this.current = run;
      const end = await run.runToEnd();
      this.current = undefined;
      if (this.ready) {
        this.ready = false;
        this.readyGate = deferred();
      }
      if (this.stopped.signal.aborted) return;
      const delayMs = this.supervisor.ended(this.spec, end, policy);
      if (delayMs === undefined) return;
      await pause(delayMs, this.stopped.signal);
    }
  }

  /** Waits until every child this one needs is ready (or it is stopped). */
  private async neededReady(): Promise<void> {
    const needs = (this.spec.needs ?? []).map((n) => this.supervisor.child(n).whenReady());
    const stopped = new Promise<void>((resolve) => this.stopped.signal.addEventListener('abort', () => resolve(), { once: true }));
    await Promise.race([Promise.all(needs), stopped]);
  }

  async stop(): Promise<void> {
    this.stopped.abort();
    await this.current?.stop();
    await this.loop;
  }
}
