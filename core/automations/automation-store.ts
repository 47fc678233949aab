import type { AutomationRecord, AutomationRun } from './automation-record.js';

/** An automation with what its latest firing did. */
export interface StoredAutomation {
  record: AutomationRecord;
  lastRun: AutomationRun | null;
  /** The latest run as stored (opaque): `claimRun` writes only over this one. */
  runVersion: string | null;
}

/**
 * Quire's own record of each automation: the prompt (kept out of Temporal) and the latest run,
 * which the overlap check reads. Whether it is paused, and when it fires next, Temporal's schedule says.
 */
export interface AutomationStore {
  create(record: AutomationRecord): Promise<void>;
  get(projectId: string, id: string): Promise<StoredAutomation | undefined>;
  /** Oldest first. */
  list(projectId: string): Promise<StoredAutomation[]>;
  remove(projectId: string, id: string): Promise<void>;
  noteRun(projectId: string, id: string, run: AutomationRun): Promise<void>;
  /**
   * Notes `run` only if the latest run is still the one read (`runVersion`): of two starts that
   * read the same run (a firing and a trigger at once), one claims the next run. False: another did.
   */
  claimRun(projectId: string, id: string, runVersion: string | null, run: AutomationRun): Promise<boolean>;
}

/** Oldest first, ties by id, so listings are stable. */
export function compareOldestFirst(a: StoredAutomation, b: StoredAutomation): number {
  if (a.record.createdAt !== b.record.createdAt) return a.record.createdAt < b.record.createdAt ? -1 : 1;
  return a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0;
}
