import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { takeLease, type Database } from '../db/index.js';
import type { Logger } from '../logger.js';
import { deleteJob } from './database-job-store.js';
import { PURGE_SLICE } from './job-events.js';
import type { JobRecord } from './job-record.js';
import type { JobStore } from './job-store.js';

const DAY_MS = 86_400_000;

export interface JobRetentionOptions {
  /** Each job goes with its messages and events in one transaction. */
  database: Database;
  /** Names the jobs past retention. */
  jobs: JobStore;
  /** The webhook delivery log; named by the one method used, since core/webhooks imports this folder. */
  deliveries: { purgeDeliveries(before: string): Promise<number> };
  /**
   * The assistant's threads (`QUIRE_THREAD_RETENTION_DAYS`), swept on this timer: the thread store
   * sweeps otherwise only as answers are written, so a quiet deployment would keep them for good.
   */
  threads: { sweep(now: number): Promise<number> };
  logger: Logger;
  /** `QUIRE_JOB_RETENTION_DAYS`. */
  retentionDays: number;
  /**
   * `QUIRE_JOB_IDLE_ARCHIVE_DAYS`, and how a job is archived: through its workflow (the only
   * writer of job state), by an archive update that starts a run if none is open.
   */
  idleArchive: { days: number; archive(job: JobRecord): Promise<unknown> };
  /** How often the timer looks whether a purge is due. */
  checkIntervalMs?: number;
  purgeIntervalMs?: number;
  /** The clock, injectable so retention is tested without waiting. */
  now?: () => number;
  /** Names this process as the holder of the rounds' leases (default: host, process id and a random suffix). */
  holder?: string;
}

/** What one purge deleted. */
export interface JobPurge {
  jobs: number;
  events: number;
  deliveries: number;
}

/** Idle jobs one sweep archives at most: each is a workflow update, so a backlog goes over several sweeps. */
const IDLE_ARCHIVE_SLICE = 100;

/**
 * Archives jobs idle (completed or failed, unchanged) longer than
 * `QUIRE_JOB_IDLE_ARCHIVE_DAYS` and enforces `QUIRE_JOB_RETENTION_DAYS`. A job
 * is closed once archived (by its user or by this sweep): completed and failed
 * jobs still take follow-ups, so they are never purged. A job archived
 * longer ago than the retention goes with its messages and its events; the
 * webhook delivery log keeps each delivery as long, counted from its last
 * attempt. The same round sweeps the assistant's threads past their retention. Every API replica
 * runs the timer, and each round is done by one of them: the replica whose round comes first takes
 * the round's lease in the database (the `leases` table) for the round's interval, and the others
 * skip it until that time is up. A replica that stops holds the lease no longer than that.
 */
export class JobRetention {
  private lastPurge = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Set by `stop`: a sweep under way ends after the job it is at, not after its whole slice. */
  private stopping = false;
  readonly now: () => number;
  private readonly holder: string;

  constructor(private readonly options: JobRetentionOptions) {
    this.now = options.now ?? Date.now;
    this.holder = options.holder ?? `${os.hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  }

  /** Checks on a timer until `stop`; the timer never keeps the process alive. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.options.checkIntervalMs ?? 60_000);
    this.timer.unref();
  }

  /**
   * Stops the timer and waits for the round under way, which ends after the job it is at: a
   * slice of 100 jobs, each call to Temporal allowed 15 s, would otherwise hold a stopping API
   * past its orchestrator's grace while Temporal is down.
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopping = true;
    await this.running;
  }

  /** One round of the timer: purges when a purge is due, logging (never throwing) a failure. One round at a time. */
  tick(): Promise<void> {
    this.running ??= this.round().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async round(): Promise<void> {
    const now = this.now();
    const purgeEvery = this.options.purgeIntervalMs ?? 3_600_000;
    if (now - this.lastPurge < purgeEvery) return;
    this.lastPurge = now;
    if (!(await this.lease('job-retention', purgeEvery, now))) return;
    await this.archiveIdle().catch((err: unknown) => {
      this.options.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'idle job archive failed');
    });
    await this.purge().catch((err: unknown) => {
      this.options.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'job retention purge failed');
    });
    await this.options.threads.sweep(now).catch((err: unknown) => {
      this.options.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'thread retention sweep failed');
    });
  }

  /** Whether this process does the round `name` now; a database that cannot say means no (the next round asks again). */
  private async lease(name: string, ttlMs: number, now: number): Promise<boolean> {
    try {
      return await takeLease(this.options.database, name, this.holder, ttlMs, now);
    } catch (err) {
      this.options.logger.warn({ err: err instanceof Error ? err.message : String(err), lease: name }, 'retention round skipped: its lease could not be read');
      return false;
    }
  }

  /** Archives the jobs idle longer than the idle period as of the clock; returns how many. */
  async archiveIdle(): Promise<number> {
    const { idleArchive, jobs, logger } = this.options;
    const before = new Date(this.now() - idleArchive.days * DAY_MS).toISOString();
    const idle = await jobs.unchangedBefore(['completed', 'failed'], before, IDLE_ARCHIVE_SLICE);
    let archived = 0;
    for (const job of idle) {
      if (this.stopping) break;
      try {
        // A follow-up since the slice was read (a sweep can take minutes while Temporal is slow) makes the job busy again.
        if ((await jobs.get(job.projectId, job.id))?.revision !== job.revision) continue;
        await idleArchive.archive(job);
        archived += 1;
      } catch (err) {
        // One job's workflow that cannot take it now is tried again at the next sweep.
        logger.warn({ err: err instanceof Error ? err.message : String(err), jobId: job.id }, 'idle job not archived');
      }
    }
    if (archived > 0) logger.info({ jobs: archived, idleArchiveDays: idleArchive.days }, 'idle jobs archived');
    return archived;
  }

  /** Deletes what is past the retention as of the clock, in slices. */
  async purge(): Promise<JobPurge> {
    const before = new Date(this.now() - this.options.retentionDays * DAY_MS).toISOString();
    let jobs = 0;
    let events = 0;
    for (;;) {
      const slice = await this.options.jobs.archivedBefore(before, PURGE_SLICE);
      for (const ref of slice) {
        // The record, its messages and its events go together or not at all.
        const gone = await this.options.database.transaction((trx) => deleteJob(trx, ref.jobId));
        events += gone.events;
        if (gone.job) jobs += 1;
      }
      if (slice.length < PURGE_SLICE) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const deliveries = await this.options.deliveries.purgeDeliveries(before);
    if (jobs + deliveries > 0) this.options.logger.info({ jobs, events, deliveries, retentionDays: this.options.retentionDays }, 'jobs and deliveries past retention deleted');
    return { jobs, events, deliveries };
  }
}
