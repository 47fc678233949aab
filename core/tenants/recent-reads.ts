import { AsyncResource } from 'node:async_hooks';

/**
 * Runs `make` outside the async context of the request that calls (bound here, as the module
 * loads). A promise keeps the context it was made in (a request's log fields and trace span, and
 * through them its whole context, request and response) for as long as it is kept: an answer kept
 * for a TTL, or until the least recently used goes, must not keep its request.
 */
const outsideRequests = AsyncResource.bind(<T>(make: () => T): T => make());

/**
 * A bounded memory of one kind of tenant read (keys, projects, domains or organisations): each
 * answer is kept for `ttlMs` from the moment its read started, the least recently used goes first
 * past `maxEntries`, and only what was found is kept, so an unknown id or a guessed key is read
 * from the database every time and never crowds out the live ones. Concurrent reads of one id
 * share one query. `forget` drops everything, reads in flight included: a read that started
 * before a write committed is never handed to a caller who asks after it.
 */
export class RecentReads<V> {
  private readonly entries = new Map<string, { value: Promise<V | undefined>; expiresAt: number }>();
  private holding = true;

  constructor(
    private readonly options: { ttlMs: number; maxEntries: number; now?: () => number },
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The answer for `id` read less than `ttlMs` ago, else what `load` reads now. */
  read(id: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    if (!this.holding || this.options.ttlMs <= 0) return load();
    const now = this.options.now?.() ?? Date.now();
    const kept = this.entries.get(id);
    if (kept && kept.expiresAt > now) {
      // Most recently used last: eviction takes the first.
      this.entries.delete(id);
      this.entries.set(id, kept);
      return kept.value;
    }
    // Read in the request's context (its query is traced and logged with it); kept outside it.
    const loading = load();
    const entry = { value: outsideRequests(() => loading.then((found) => found)), expiresAt: now + this.options.ttlMs };
    this.entries.delete(id);
    this.entries.set(id, entry);
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const drop = () => {
      if (this.entries.get(id) === entry) this.entries.delete(id);
    };
    entry.value.then((found) => found === undefined && drop(), drop);
    return entry.value;
  }

  /** Replaces a kept answer (one this process changed, such as a key's last use); nothing when none is kept. */
  replace(id: string, value: V): void {
    const kept = this.entries.get(id);
    if (kept) kept.value = outsideRequests(() => Promise.resolve(value));
  }

  forget(): void {
    this.entries.clear();
  }

  /** Keeps nothing until `resume`: while changes made elsewhere might go unheard. */
  suspend(): void {
    this.holding = false;
    this.entries.clear();
  }

  resume(): void {
    this.entries.clear();
    this.holding = true;
  }
}
