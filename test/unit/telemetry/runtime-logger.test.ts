/** The Temporal SDK's own log lines, as the worker writes them: the job they belong to, and a failure that says what failed. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { ApplicationFailure } from '@temporalio/common';
import { AGENT_JOB_WORKFLOW, agentJobWorkflowId } from '../../../core/contracts/agent-job.js';
import { createLogger } from '../../../core/logger.js';
import { newSecret } from '../../../core/tenants/keys.js';
import { temporalLogger } from '../../../worker/runtime-logger.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('info', 'test', new Writable({ write: (chunk: Buffer, _e, done) => void (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) }));
  return { log: temporalLogger(logger), lines };
}

describe('the Temporal SDK logger', () => {
  it("logs a failed workflow's failure with its class and message, and the job it ran for", () => {
    const { log, lines } = capture();
    const workflowId = agentJobWorkflowId('job_abc123');
    const failure = ApplicationFailure.nonRetryable('the model endpoint answered 400: bad request', 'ModelRequestInvalid');
    log.warn('Workflow failed', { namespace: 'default', workflowId, runId: 'run-1', workflowType: AGENT_JOB_WORKFLOW, error: failure });
    const [line] = lines;
    assert.equal(line!.msg, 'Workflow failed');
    assert.equal(line!.jobId, 'job_abc123');
    assert.equal(line!.workflowId, workflowId);
    const err = line!.err as { type: string; message: string; stack: string };
    assert.equal(err.type, 'ApplicationFailure');
    assert.equal(err.message, 'the model endpoint answered 400: bad request');
    assert.equal(line!.error, undefined);
  });

  it("masks a secret in a failure's message, and names no job for another workflow", () => {
    const { log, lines } = capture();
    const key = newSecret('admin');
    log.warn('Activity failed', { workflowId: 'index-docs', workflowType: 'indexDomainWorkflow', activityType: 'indexPages', error: new Error(`refused key ${key}`) });
    assert.equal(lines[0]!.jobId, undefined);
    assert.equal((lines[0]!.err as { message: string }).message, 'refused key [redacted]');
    assert.ok(!JSON.stringify(lines).includes(key));
  });

  it('keeps a job id the line already has, and a non-error `error` field as it is', () => {
    const { log, lines } = capture();
    log.info('turn', { workflowId: 'job_1', workflowType: AGENT_JOB_WORKFLOW, jobId: 'job_1', error: 'none' });
    assert.equal(lines[0]!.jobId, 'job_1');
    assert.equal(lines[0]!.error, 'none');
  });
});
