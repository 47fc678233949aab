import path from 'node:path';
import { readJsonIfExists, withFileLock, writeJsonAtomic } from '../store/atomic-file.js';
import { hashSecret, sameHash } from '../tenants/keys.js';

/** A pull request of the embedded local forge: the branch lives in the local repository, the record here. */
export interface PullRecord {
  number: number;
  projectId: string;
  jobId: string;
  /** Job branch (head) and the project's base branch. */
  branch: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  state: 'open' | 'closed';
  comments: Array<{ body: string; createdAt: string }>;
  /** SHA-256 of the view token in this pull request's link (see view-token.ts). */
  viewTokenHash?: string;
  createdAt: string;
  updatedAt: string;
}

/** Whether `token` is the one in this pull request's link (constant-time). */
export function canViewWithToken(pull: PullRecord, token: string): boolean {
  return pull.viewTokenHash !== undefined && sameHash(pull.viewTokenHash, hashSecret(token));
}

interface ProjectPulls {
  nextNumber: number;
  pulls: PullRecord[];
}

export type NewPull = Omit<PullRecord, 'number' | 'state' | 'comments' | 'viewTokenHash' | 'createdAt' | 'updatedAt'>;

/** Pull-request records per project, one JSON file each under `<dataDir>/pulls/`, written atomically under a lock. */
export class PullStore {
  constructor(private readonly dataDir: string) {}

  private file(projectId: string): string {
    return path.join(this.dataDir, 'pulls', `${encodeURIComponent(projectId)}.json`);
  }

  private async read(projectId: string): Promise<ProjectPulls> {
    return (await readJsonIfExists<ProjectPulls>(this.file(projectId))) ?? { nextNumber: 1, pulls: [] };
  }

  async get(projectId: string, number: number): Promise<PullRecord | undefined> {
    return (await this.read(projectId)).pulls.find((p) => p.number === number);
  }

  async findOpen(projectId: string, branch: string): Promise<PullRecord | undefined> {
    return (await this.read(projectId)).pulls.find((p) => p.branch === branch && p.state === 'open');
  }

  /** Creates the record unless an open one exists for the branch (then returns that one, created: false). */
  async openOnce(pull: NewPull): Promise<{ pull: PullRecord; created: boolean }> {
    const file = this.file(pull.projectId);
    return withFileLock(file, async () => {
      const all = await this.read(pull.projectId);
      const existing = all.pulls.find((p) => p.branch === pull.branch && p.state === 'open');
      if (existing) return { pull: existing, created: false };
      const now = new Date().toISOString();
      const record: PullRecord = { ...pull, number: all.nextNumber, state: 'open', comments: [], createdAt: now, updatedAt: now };
      await writeJsonAtomic(file, { nextNumber: all.nextNumber + 1, pulls: [...all.pulls, record] });
      return { pull: record, created: true };
    });
  }

  /** Applies a change to one record under the lock; returns the updated record. */
  async update(projectId: string, number: number, change: (pull: PullRecord) => void): Promise<PullRecord | undefined> {
    const file = this.file(projectId);
    return withFileLock(file, async () => {
      const all = await this.read(projectId);
      const pull = all.pulls.find((p) => p.number === number);
      if (!pull) return undefined;
      change(pull);
      pull.updatedAt = new Date().toISOString();
      await writeJsonAtomic(file, all);
      return pull;
    });
  }

  /** Records the hash of the pull request's view token, unless it is already the one stored. */
  async keepViewToken(projectId: string, number: number, token: string): Promise<void> {
    const hash = hashSecret(token);
    const pull = await this.get(projectId, number);
    if (!pull || pull.viewTokenHash === hash) return;
    await this.update(projectId, number, (p) => {
      p.viewTokenHash = hash;
    });
  }
}
