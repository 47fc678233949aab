import { ToolError } from './tool-error.js';

/** What one turn may change: bytes per file, distinct files, and the total size of the files it wrote. */
export interface WriteLimits {
  maxFileBytes: number;
  maxFilesPerTurn: number;
  maxTurnBytes: number;
}

/**
 * Counts what a turn changes, so a model cannot push a 50 MB page or ten thousand files. Each file
 * counts once, at its latest size; a refusal is a tool error the model reads and can act on.
 */
export class TurnBudget {
  private readonly changed = new Set<string>();
  private readonly written = new Map<string, number>();

  constructor(readonly limits: WriteLimits) {}

  /** Admits a change (write, delete, move) of `paths`, refusing one that would exceed the file count. */
  admitChange(...paths: string[]): void {
    const fresh = paths.filter((p) => !this.changed.has(p));
    if (this.changed.size + fresh.length > this.limits.maxFilesPerTurn)
      throw new ToolError(
        `this turn has already changed ${this.changed.size} files, the most one turn may change is ${this.limits.maxFilesPerTurn}; ` +
          'finish now and continue in a follow-up',
      );
    for (const p of fresh) this.changed.add(p);
  }

  /** Admits writing `bytes` to `path`, refusing a file or a turn total over its limit. */
  admitWrite(path: string, bytes: number): void {
    const { maxFileBytes, maxTurnBytes } = this.limits;
    if (bytes > maxFileBytes) throw new ToolError(`the content is ${bytes} bytes; a file may hold at most ${maxFileBytes} bytes`);
    const total = this.total() - (this.written.get(path) ?? 0) + bytes;
    if (total > maxTurnBytes)
      throw new ToolError(`this write would bring the files this turn wrote to ${total} bytes, over the limit of ${maxTurnBytes} per turn`);
    this.admitChange(path);
    this.written.set(path, bytes);
  }

  /** A moved file carries its size to the new path. */
  moved(from: string, to: string): void {
    const bytes = this.written.get(from);
    if (bytes === undefined) return;
    this.written.delete(from);
    this.written.set(to, bytes);
  }

  /** A deleted file no longer counts toward the total. */
  deleted(path: string): void {
    this.written.delete(path);
  }

  private total(): number {
    let sum = 0;
    for (const b of this.written.values()) sum += b;
    return sum;
  }
}
