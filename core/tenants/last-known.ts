import type { Logger } from '../logger.js';

/**
 * The last value Redis gave for each tenant record this process has read, so
 * that an outage does not turn every request into a 503 when the operator
 * chose to keep serving. Every successful read refreshes or forgets an entry,
 * so while Redis answers nothing here is ever used; during an outage a record
 * is as fresh as its last successful read (a key revoked during the outage
 * still passes until Redis answers again). Only records read since start-up
 * are known: a key never seen before the outage gets the 503.
 */
export class LastKnownRecords {
  private readonly records = new Map<string, string>();
  private failing = false;

  constructor(private readonly logger: Logger | undefined) {}

  /** Runs a read of one record; on a failure answers the last value read, or rethrows when none is known. */
  async read(hash: string, id: string, fetch: () => Promise<string | null>): Promise<string | null> {
    const slot = `${hash}\u0000${id}`;
    let raw: string | null;
    try {
      raw = await fetch();
    } catch (err) {
      const known = this.records.get(slot);
      if (known === undefined) throw err;
      this.reportFailure(err);
      return known;
    }
    if (this.failing) {
      this.failing = false;
      this.logger?.info('tenant store is back: reading keys and domains from Redis again');
    }
    if (raw === null) this.records.delete(slot);
    else this.records.set(slot, raw);
    return raw;
  }

  private reportFailure(err: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.logger?.warn(
      { err: err instanceof Error ? err.message : String(err) },
      'tenant store failed: answering from the records last read until Redis answers again',
    );
  }
}
