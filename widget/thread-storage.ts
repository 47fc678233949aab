export interface SavedThread {
  threadId: string;
  threadKey: string;
}

/**
 * The conversation's id and key in `localStorage`, per API and domain, so a
 * reader keeps the thread across pages of the site. Storage may be off
 * (private mode, blocked cookies): the widget then keeps it for the page only.
 */
export class ThreadStorage {
  private memory: SavedThread | undefined;

  constructor(private readonly name: string) {}

  load(): SavedThread | undefined {
    try {
      const raw = window.localStorage.getItem(this.name);
      const parsed: unknown = raw ? JSON.parse(raw) : undefined;
      if (typeof parsed === 'object' && parsed !== null && 'threadId' in parsed && 'threadKey' in parsed) {
        const { threadId, threadKey } = parsed;
        if (typeof threadId === 'string' && typeof threadKey === 'string') return { threadId, threadKey };
      }
    } catch {
      // storage unavailable or corrupt: fall back to memory
    }
    return this.memory;
  }

  save(thread: SavedThread): void {
    this.memory = thread;
    try {
      window.localStorage.setItem(this.name, JSON.stringify(thread));
    } catch {
      // storage unavailable: memory only
    }
  }

  clear(): void {
    this.memory = undefined;
    try {
      window.localStorage.removeItem(this.name);
    } catch {
      // storage unavailable
    }
  }
}
