import { spawn, type ChildProcess } from 'node:child_process';

/** The first restart waits this long; each failure in a row doubles it, up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
/** A process that ran this long before failing is restarted from the shortest delay again. */
const STABLE_MS = 60_000;

export interface SupervisedOptions {
  /** Shown in log lines: `worker`, `api`. */
  name: string;
  /** The compiled entry point to run with this Node. */
  script: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

/**
 * One child process of the start command (the worker or the API). Until `keepRunning()` is called
 * an exit is reported through `exitedDuringStartUp`; after it, an unexpected exit is logged and the
 * process started again with backoff, while the other processes carry on.
 */
export class SupervisedProcess {
  private child: ChildProcess | undefined;
  private restarting = false;
  private stopping = false;
  private failuresInARow = 0;
  private timer: NodeJS.Timeout | undefined;
  private startUpExit: ((code: number | null) => void) | undefined;
  /** Resolves with the exit code if the process ends before keepRunning(). */
  readonly exitedDuringStartUp = new Promise<number | null>((resolve) => (this.startUpExit = resolve));

  constructor(private readonly o: SupervisedOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    // Own process group: Ctrl-C reaches only the start command, which stops each child once, in order.
    // The IPC channel closes if the start command dies, and the child then stops itself (core/run-main.ts).
    const child = spawn(process.execPath, [this.o.script], { env: this.o.env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], detached: true });
    const startedAt = Date.now();
    this.child = child;
    child.once('exit', (code, signal) => this.exited(child, code, signal, startedAt));
  }

  /** From now on an unexpected exit restarts the process. */
  keepRunning(): void {
    this.restarting = true;
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null, startedAt: number): void {
    if (this.child !== child || this.stopping) return;
    if (!this.restarting) {
      this.startUpExit?.(code);
      return;
    }
    if (Date.now() - startedAt >= STABLE_MS) this.failuresInARow = 0;
    const delay = Math.min(FIRST_DELAY_MS * 2 ** this.failuresInARow, MAX_DELAY_MS);
    this.failuresInARow++;
    this.o.log(`quire: the ${this.o.name} exited unexpectedly (${signal ?? `code ${code}`}); restarting it in ${delay / 1000}s`);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.stopping) return;
      this.start();
      this.o.log(`quire: the ${this.o.name} started again (pid ${this.child?.pid})`);
    }, delay);
  }

  /** Stops the process (and any pending restart); resolves once it has exited. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  }
}
