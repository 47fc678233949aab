/**
 * A separate process writing through the embedded database (one SQLite file), for the multi-process store tests:
 *   node --require tsx/cjs test/support/store-writer.ts <tenants|pulls|jobs> <dataDir> <count|forever> <tag>
 * Prints `ack <id>` after each write the store confirmed and `fail <message>` for each one it
 * refused, so a test knows exactly what must have survived a kill.
 */
import { newJobRecord } from '../../api/agent/create-job.js';
import { PullStore } from '../../core/forge/index.js';
import { databaseTarget, openMigratedDatabase } from '../../core/db/index.js';
import { createJobStore, type JobRecord } from '../../core/jobs/index.js';
import { createTenantStore } from '../../core/tenants/index.js';

type Write = (i: number) => Promise<string>;

async function writerFor(kind: string, dataDir: string, tag: string): Promise<Write> {
  if (kind === 'tenants') {
    const store = createTenantStore(await openMigratedDatabase(databaseTarget(undefined, dataDir)));
    return async () => (await store.createKey('acme', 'assistant')).record.id;
  }
  if (kind === 'pulls') {
    const store = new PullStore(await openMigratedDatabase(databaseTarget(undefined, dataDir)));
    return async (i) => {
      const { pull } = await store.openOnce({ projectId: 'docs', jobId: `${tag}-${i}`, branch: `quire/${tag}-${i}`, base: 'main', title: 't', body: 'b', draft: false });
      return String(pull.number);
    };
  }
  if (kind === 'jobs') {
    const store = createJobStore(await openMigratedDatabase(databaseTarget(undefined, dataDir)));
    const created = newJobRecord({ projectId: 'docs', repository: 'https://example.com/docs.git', ref: 'main', model: 'm' }, new Date('2026-01-01T00:00:00.000Z'));
    const base: JobRecord = { ...created, id: 'job_shared' };
    return async (i) => {
      // Revisions arrive in a different order in every process.
      const revision = (i * 7 + Number(tag)) % 40;
      const kept = await store.put({ ...base, revision, updatedAt: new Date().toISOString() });
      return String(kept.revision);
    };
  }
  throw new Error(`unknown store ${kind}`);
}

async function main(): Promise<void> {
  const [kind = '', dataDir = '', count = 'forever', tag = '0'] = process.argv.slice(2);
  const write = await writerFor(kind, dataDir, tag);
  const total = count === 'forever' ? Infinity : Number(count);
  for (let i = 0; i < total; i++) {
    try {
      process.stdout.write(`ack ${await write(i)}\n`);
    } catch (err) {
      process.stdout.write(`fail ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
}

void main();
