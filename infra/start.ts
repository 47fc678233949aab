import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { loadConfig } from '../core/config.js';
import { INDEX_DOMAIN_WORKFLOW, indexDomainStartOptions, type IndexDomainWorkflow } from '../core/contracts/index.js';
import { createLogger } from '../core/logger.js';
import { openPlatform } from '../core/platform/index.js';
import { runMain } from '../core/run-main.js';
import { createMetrics } from '../core/telemetry/index.js';
import { applySeedFile } from '../core/tenants/seed-file.js';
import { followSeed } from '../core/index-runs/index.js';
import { DEV_SERVER, devServerChild } from './dev-server.js';
import { localEmbedderChild, localEmbedderFiles } from './embedder.js';
import { EXAMPLE, ensureExample, type CreatedExample } from './example.js';
import { announcesReady, answersHttp, nodeScript, type ChildSpec } from './supervised-process.js';
import { Supervisor } from './supervisor.js';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** A /readyz answer in which Temporal answered the API's probe. */
const TEMPORAL_ANSWERS = v.object({ checks: v.object({ temporal: v.literal('ok') }) });

/**
 * Polls the API's /readyz until it is ready and Temporal answers it: /readyz tolerates Temporal
 * down (degraded), but the example's indexing starts next, and a job created once the banner
 * prints must be accepted.
 */
async function waitReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`${url}/readyz`).then(async (r) => r.ok && v.is(TEMPORAL_ANSWERS, await r.json()), () => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`the API did not become ready within ${timeoutMs / 1000}s (${url}/readyz)`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

class Interrupted extends Error {}

/**
 * `npm start`: the embedded default on one machine. Runs the Temporal dev server (unless
 * TEMPORAL_ADDRESS points at a cluster), the worker and the API under one Supervisor, creates the
 * example organisation on the first run, and keeps them running until Ctrl-C or SIGTERM: a process
 * that dies is started again with backoff, on the same data and ports. The stack stops, in order
 * (API and worker drain first, the dev server last), on a signal or when a process keeps failing,
 * with the reason. Killed outright, it leaves no orphans: the children watch it.
 */
async function main(): Promise<void> {
  // Listen for Ctrl-C from the first moment: a signal during start-up lets the current step
  // finish, then stops whatever was started (never leaves an orphaned dev server).
  let interrupted = false;
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      interrupted = true;
      resolve(signal);
    };
    process.once('SIGINT', on);
    process.once('SIGTERM', on);
  });
  const config = loadConfig();
  await fs.mkdir(config.dataDir, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
    throw new Error(`QUIRE_DATA_DIR: cannot use ${config.dataDir} as the data folder (${err.code ?? err.message}): name a folder Quire may create and write`, { cause: err });
  });
  const env: NodeJS.ProcessEnv = { ...process.env };
  const devServer = config.temporal.address
    ? undefined
    : devServerChild({
        binary: config.temporal.cliPath ?? path.join(REPO_ROOT, '.tools', 'bin', 'temporal'),
        dataDir: config.dataDir,
        port: config.temporal.embeddedPort,
        uiPort: config.temporal.embeddedUiPort,
        namespace: config.temporal.namespace,
      });
  if (devServer) env.TEMPORAL_ADDRESS = devServer.address;
  const apiUrl = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
  // The local embedder (QUIRE_EMBEDDER=local, the default) is one more supervised child; without its
  // install the API and the worker run with keyword retrieval only.
  const embedderFiles = localEmbedderFiles(REPO_ROOT);
  const embedderBinary = embedderFiles.binary;
  const embedder =
    config.embedder.kind === 'local' && fsSync.existsSync(embedderBinary)
      ? [localEmbedderChild({ ...embedderFiles, port: config.embedder.localPort, logFile: path.join(config.dataDir, 'embedder.log') })]
      : [];
  if (config.embedder.kind === 'local' && embedder.length === 0) {
    process.stderr.write(`quire: the local embedder is not installed (${path.relative(process.cwd(), embedderBinary)}); running with keyword retrieval only (bash infra/setup.sh installs it)\n`);
    env.QUIRE_EMBEDDER = 'none';
  }
  const script = (entry: string) => path.resolve(__dirname, '..', entry);
  const children: ChildSpec[] = [
    ...(devServer ? [devServer] : []),
    ...embedder,
    {
      name: 'worker',
      needs: devServer ? [DEV_SERVER] : [],
      start: () => nodeScript(script('worker/main.js'), env),
      ready: announcesReady,
      stopGraceMs: config.worker.shutdownGraceMs + 10_000,
      hint: 'see the messages above',
    },
    {
      name: 'api',
      start: () => nodeScript(script('api/server.js'), env),
      ready: answersHttp(`${apiUrl}/healthz`),
      hint: 'see the messages above',
    },
  ];
  const supervisor = new Supervisor(children, (line) => process.stderr.write(`${line}\n`));
  const failed = supervisor.failed.then((reason) => Promise.reject(new Error(reason)));
  const interruption = signalled.then(() => Promise.reject(new Interrupted()));
  // A start-up step, cut short by Ctrl-C or by a process that cannot start.
  const step = <T>(work: Promise<T>) => Promise.race([work, failed, interruption]);
  let created: CreatedExample | undefined;
  try {
    await step(supervisor.start());
    await step(waitReady(apiUrl, 60_000));
    // Only now that the stack runs: keys printed once must not be lost to a start that fails.
    // The stack's own configuration: the dev server's address, the embedder it runs.
    const platform = await openPlatform(loadConfig(env), { logger: createLogger('silent', 'quire-start'), metrics: createMetrics({ orgLabel: false }), env, temporal: 'client' });
    try {
      if (config.seedFile) await step(followSeed(platform.temporal, config.temporal.taskQueue, platform.tenants, await applySeedFile(config.seedFile, platform.tenants, platform.webhooks)));
      created = config.seedFile ? undefined : await ensureExample(platform.tenants, config.dataDir);
      // The assistant answers from the index: build the example domain's now, in the background.
      if (created) await step(platform.temporal.workflow.signalWithStart<IndexDomainWorkflow>(INDEX_DOMAIN_WORKFLOW, indexDomainStartOptions(EXAMPLE.domain, config.temporal.taskQueue)));
    } finally {
      await platform.close();
    }
    if (interrupted) throw new Interrupted();
  } catch (err) {
    await supervisor.stop();
    if (err instanceof Interrupted) {
      process.stdout.write('Stopped during start-up.\n');
      return;
    }
    throw err;
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

  supervisor.keepRunning();
  const reason = await Promise.race([signalled.then(() => undefined), supervisor.failed]);
  if (reason !== undefined) {
    await supervisor.stop();
    throw new Error(`${reason}; everything was stopped`);
  }
  process.stdout.write('\nStopping: draining the worker, closing the API, stopping Temporal…\n');
  await supervisor.stop();
  process.stdout.write('Stopped.\n');
}

if (require.main === module) runMain('quire', main);
