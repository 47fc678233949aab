import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, type Worker } from '@temporalio/worker';
import { createActivities, type ActivityServices } from '../../activities/index.js';
import { SEARCH_ATTRIBUTES } from '../../core/contracts/search-attributes.js';
import { startTracing, type Tracing } from '../../core/telemetry/index.js';
import { createWorker } from '../../worker/create-worker.js';
import { WORKFLOW_TRACING_MODULE } from '../../worker/telemetry.js';
import { onSuiteEnd } from './teardown.js';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const TEMPORAL_BIN = process.env.QUIRE_TEMPORAL_BIN ?? path.join(REPO_ROOT, '.tools', 'bin', 'temporal');

let env: Promise<TestWorkflowEnvironment> | undefined;
let bundle: Promise<string> | undefined;

/** One real Temporal dev server (the installed CLI) for the whole suite, search attributes registered. */
export function temporalEnv(): Promise<TestWorkflowEnvironment> {
  env ??= TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: TEMPORAL_BIN },
      searchAttributes: SEARCH_ATTRIBUTES,
      extraArgs: ['--log-level', 'error'],
    },
  }).then((e) => {
    onSuiteEnd(() => e.teardown());
    return e;
  });
  return env;
}

/**
 * A dev server of its own that suggests continue-as-new once a run's history holds `events` events
 * (Temporal's default is thousands), so a test reaches that point in a few seconds.
 */
export function earlyContinueAsNewEnv(events = 40): Promise<TestWorkflowEnvironment> {
  return separateTemporalEnv(['--dynamic-config-value', `limit.historyCount.suggestContinueAsNew=${events}`]);
}

/**
 * A dev server of its own (`extraArgs` added to its command line): for a test that acts on the whole
 * namespace, which other suites' leftovers on the shared server would disturb.
 */
export async function separateTemporalEnv(extraArgs: string[] = []): Promise<TestWorkflowEnvironment> {
  const e = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: TEMPORAL_BIN },
      searchAttributes: SEARCH_ATTRIBUTES,
      extraArgs: ['--log-level', 'error', ...extraArgs],
    },
  });
  onSuiteEnd(() => e.teardown());
  return e;
}

/** The workflows folder bundled once per suite. */
export function workflowCode(): Promise<string> {
  bundle ??= bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    workflowInterceptorModules: [WORKFLOW_TRACING_MODULE],
    logger: { info() {}, warn() {}, debug() {}, trace() {}, error: console.error, log() {} },
  }).then((b) => b.code);
  return bundle;
}

export interface RunningWorker {
  taskQueue: string;
  worker: Worker;
  stop(): Promise<void>;
}

/** Starts a real worker on a fresh task queue with the real activities built from `services`. */
export async function startWorker(
  services: ActivityServices,
  opts: { taskQueue?: string; activities?: ReturnType<typeof createActivities>; tracing?: Tracing; env?: TestWorkflowEnvironment } = {},
): Promise<RunningWorker> {
  const e = opts.env ?? (await temporalEnv());
  const taskQueue = opts.taskQueue ?? `test-${randomUUID()}`;
  const worker = await createWorker({
    connection: e.nativeConnection,
    namespace: e.namespace ?? 'default',
    taskQueue,
    activities: opts.activities ?? createActivities(services),
    workflows: { code: await workflowCode() },
    maxActivities: services.config.worker.maxActivities,
    shutdownGraceMs: 2000,
    // Tracing off (nothing registered) unless the test started its own.
    tracing: opts.tracing ?? startTracing('quire-test', {}),
  });
  const running = worker.run();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running;
  };
  onSuiteEnd(stop);
  return { taskQueue, worker, stop };
}
