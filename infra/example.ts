import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TenantStore } from '../core/tenants/index.js';

const run = promisify(execFile);

/** The example docs site that ships with Quire. */
export const EXAMPLE_DOCS_DIR = path.resolve(__dirname, '..', '..', 'infra', 'example-docs');

export const EXAMPLE = { org: 'example', project: 'example-docs', domain: 'example-docs' } as const;

const GIT_IDENTITY = ['-c', 'user.name=Quire', '-c', 'user.email=quire@localhost', '-c', 'init.defaultBranch=main'];

/** Makes a bare repository (the local forge's remote) from the example docs folder. */
async function createExampleRepo(bareDir: string): Promise<void> {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-example-'));
  try {
    await fs.cp(EXAMPLE_DOCS_DIR, work, { recursive: true });
    await run('git', [...GIT_IDENTITY, 'init', '-q'], { cwd: work });
    await run('git', [...GIT_IDENTITY, 'add', '-A'], { cwd: work });
    await run('git', [...GIT_IDENTITY, 'commit', '-q', '-m', 'Example docs'], { cwd: work });
    await fs.mkdir(path.dirname(bareDir), { recursive: true });
    await run('git', ['clone', '-q', '--bare', work, bareDir]);
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

export interface CreatedExample {
  adminKey: string;
  assistantKey: string;
}

/**
 * On the first run only (no organisation yet), creates the ready-made
 * organisation, project and domain over the example docs, and two keys.
 */
export async function ensureExample(tenants: TenantStore, dataDir: string): Promise<CreatedExample | undefined> {
  if ((await tenants.listOrgs()).length > 0) return undefined;
  const bareDir = path.join(dataDir, 'repos', `${EXAMPLE.project}.git`);
  await fs.rm(bareDir, { recursive: true, force: true });
  await createExampleRepo(bareDir);
  await tenants.addOrg(EXAMPLE.org);
  await tenants.putProject({
    id: EXAMPLE.project,
    orgId: EXAMPLE.org,
    repository: bareDir,
    branch: 'main',
    docsPath: '',
    forge: 'local',
    allowedModels: [],
  });
  await tenants.putDomain({
    id: EXAMPLE.domain,
    orgId: EXAMPLE.org,
    source: bareDir,
    branch: 'main',
    docsPath: '',
    baseUrl: 'https://docs.example.com',
    includeHidden: false,
  });
  const admin = await tenants.createKey(EXAMPLE.org, 'admin');
  const assistant = await tenants.createKey(EXAMPLE.org, 'assistant');
  return { adminKey: admin.secret, assistantKey: assistant.secret };
}
