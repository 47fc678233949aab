/**
 * The Temporal SDK's core (Rust) logs of a worker go through its JSON logger: killed under a
 * running worker process, a real Temporal dev server leaves the worker's polls retrying, and core's
 * warnings about them are JSON lines on stdout like every other line, not coloured text.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { SEARCH_ATTRIBUTES } from '../../../core/contracts/search-attributes.js';
import { tempDir } from '../../support/services.js';
import { TEMPORAL_BIN } from '../../support/temporal.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { spawnWorker } from '../../support/worker-process.js';

/** Waits until `ok` holds of the worker's output, or fails showing it. */
async function until(ok: () => boolean, output: () => string, what: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; !ok(); ) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen; worker output:\n${output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("the worker's Temporal core logs", function () {
  this.timeout(120_000);

  it('are JSON lines on stdout, through the logger, during a Temporal outage', async () => {
    // A dev server of its own: this test kills it.
    const env = await TestWorkflowEnvironment.createLocal({
      server: { executable: { type: 'existing-path', path: TEMPORAL_BIN }, searchAttributes: SEARCH_ATTRIBUTES, extraArgs: ['--log-level', 'error'] },
    });
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      await env.teardown();
    };
    onSuiteEnd(stop);
    const worker = spawnWorker({
      TEMPORAL_ADDRESS: env.address,
      TEMPORAL_TASK_QUEUE: `core-logs-${randomUUID()}`,
      QUIRE_DATA_DIR: await tempDir(),
      QUIRE_EMBEDDER: 'none',
      LOG_LEVEL: 'info',
    });
    await until(() => worker.stdout().includes('"worker started"'), worker.output, 'the worker start');

    await stop();
    await until(() => /retried \d+ times/.test(worker.stdout()), worker.output, "core's retry warning");
    worker.child.kill('SIGKILL');
    await worker.exited;

    const lines = worker.stdout().split('\n').filter((l) => l !== '');
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as { level: string; name: string; sdkComponent?: string; target?: string; msg: string };
      } catch {
        assert.fail(`a line on stdout is not JSON: ${line}`);
      }
    });
    const retry = parsed.find((l) => /retried \d+ times/.test(l.msg));
    assert.ok(retry, worker.output());
    assert.equal(retry.level, 'warn');
    assert.equal(retry.name, 'quire-worker');
    assert.equal(retry.sdkComponent, 'core');
    assert.match(retry.target ?? '', /^temporalio_client/);
  });
});
