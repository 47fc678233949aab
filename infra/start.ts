import fs from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../core/config.js';
import { INDEX_DOMAIN_WORKFLOW, indexDomainStartOptions, type IndexDomainWorkflow } from '../core/contracts/index.js';
import { connectClient, temporalTarget } from '../core/temporal/connection.js';
import { connectRedis } from '../core/redis.js';
import { runMain } from '../core/run-main.js';
import { openTenantStore } from '../core/tenants/index.js';
import { applySeedFile } from '../core/tenants/seed-file.js';
import { openMigratedDatabase } from '../core/db/index.js';
import { createWebhookStore } from '../core/webhooks/index.js';
import { DevServerInterrupted, startDevServer, type DevServer } from './dev-server.js';
import { EXAMPLE, ensureExample } from './example.js';
import { SupervisedProcess } from './supervised-process.js';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

async function waitReady(url: string, children: SupervisedProcess[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: { code: number | null } | undefined;
  for (const c of children) void c.exitedDuringStartUp.then((code) => (exited ??= { code }));
  for (;;) {
    if (exited) throw new Error(`a Quire process exited during start-up (code ${exited.code}); see the messages above`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the API did not become ready within ${timeoutMs / 1000}s (${url}/readyz)`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

class Interrupted extends Error {}

/**
 * `npm start`: the embedded default on one machine. Starts the Temporal dev
 * server (unless TEMPORAL_ADDRESS points at a cluster), creates the example
 * organisation on the first run, then runs the worker and the API as child
 * processes until Ctrl-C or SIGTERM, restarting either with backoff if it
 * crashes, and stops them in order: API and worker drain first, the dev server
 * last. Killed outright, it leaves no orphans: the children watch it.
 */
async function main(): Promise<void> {
  // Listen for Ctrl-C from the first moment: a signal during start-up lets the current step
  // finish, then stops whatever was started (never leaves an orphaned dev server).
  let interrupted = false;
  const interrupt = new AbortController();
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      interrupted = true;
      interrupt.abort();
      resolve(signal);
    };
    process.once('SIGINT', on);
    process.once('SIGTERM', on);
  });
  const config = loadConfig();
  await fs.mkdir(config.dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env };
  let devServer: DevServer | undefined;
  if (!config.temporal.address) {
    try {
      devServer = await startDevServer({
        binary: config.temporal.cliPath ?? path.join(REPO_ROOT, '.tools', 'bin', 'temporal'),
        dataDir: config.dataDir,
        port: config.temporal.embeddedPort,
        uiPort: config.temporal.embeddedUiPort,
        namespace: config.temporal.namespace,
        signal: interrupt.signal,
      });
    } catch (err) {
      if (!(err instanceof DevServerInterrupted)) throw err;
      process.stdout.write('Stopped during start-up.\n');
      return;
    }
    env.TEMPORAL_ADDRESS = devServer.address;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const script = (entry: string) => path.resolve(__dirname, '..', entry);
  const children = [
    new SupervisedProcess({ name: 'worker', script: script('worker/main.js'), env, log }),
    new SupervisedProcess({ name: 'api', script: script('api/server.js'), env, log }),
  ];
  const stopAll = async () => {
    await Promise.all(children.map((c) => c.stop('SIGTERM')));
    await devServer?.stop();
  };
  const checkpoint = () => {
    if (interrupted) throw new Interrupted();
  };
  try {
    checkpoint();
    const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
    const tenants = openTenantStore(config.dataDir, redis);
    if (config.seedFile) {
      // The seed file's webhooks go to the database; it is migrated here, before the processes start.
      const database = await openMigratedDatabase(config.database);
      try {
        await applySeedFile(config.seedFile, tenants, createWebhookStore(database));
      } finally {
        await database.close();
      }
    }
    const created = config.seedFile ? undefined : await ensureExample(tenants, config.dataDir);
    redis?.disconnect();

    checkpoint();
    for (const c of children) c.start();
    const apiUrl = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
    await waitReady(apiUrl, children, 60_000);
    checkpoint();
    if (created) {
      // The assistant answers from the index: build the example domain's now, in the background.
      const client = await connectClient({ ...temporalTarget(config), address: env.TEMPORAL_ADDRESS ?? temporalTarget(config).address });
      await client.workflow.start<IndexDomainWorkflow>(INDEX_DOMAIN_WORKFLOW, indexDomainStartOptions(EXAMPLE.domain, config.temporal.taskQueue));
      await client.connection.close();
    }

    const lines = [
      '',
      `Quire is running.`,
      `  API          ${apiUrl}`,
      devServer ? `  Temporal UI  ${devServer.uiUrl}` : `  Temporal     ${config.temporal.address} (namespace ${config.temporal.namespace})`,
      `  Data         ${config.dataDir}`,
    ];
    if (created) {
      lines.push(
        '',
        `First run: created organisation '${EXAMPLE.org}', project '${EXAMPLE.project}' and domain '${EXAMPLE.domain}'.`,
        'These keys are shown once; keep them:',
        `  admin key      ${created.adminKey}`,
        `  assistant key  ${created.assistantKey}`,
        `The example docs are being indexed (workflow index-${EXAMPLE.domain} in the Temporal UI).`,
        '',
        'The assistant widget over the example docs:',
        `  ${apiUrl}/widget/demo#domain=${EXAMPLE.domain}&key=${encodeURIComponent(created.assistantKey)}`,
      );
    } else if (!config.seedFile) {
      lines.push('', `  Widget demo  ${apiUrl}/widget/demo (paste the assistant key of the first run)`);
    }
    lines.push('', 'Press Ctrl-C to stop.', '');
    process.stdout.write(lines.join('\n'));
  } catch (err) {
    await stopAll();
    if (err instanceof Interrupted) {
      process.stdout.write('Stopped during start-up.\n');
      return;
    }
    throw err;
  }
  for (const c of children) c.keepRunning();
  const crashedDevServer = devServer ? new Promise<void>((resolve) => devServer.process.once('exit', () => resolve())) : undefined;
  const first = await Promise.race([signalled, ...(crashedDevServer ? [crashedDevServer.then(() => 'temporal' as const)] : [])]);
  if (first === 'temporal') {
    await stopAll();
    throw new Error('the Temporal dev server exited unexpectedly; everything was stopped (see temporal.log in the data directory)');
  }
  process.stdout.write('\nStopping: draining the worker, closing the API, stopping Temporal…\n');
  await stopAll();
  process.stdout.write('Stopped.\n');
}

if (require.main === module) runMain('quire', main);
