/**
 * An event stream is as good as the credential that opened it: once its key is revoked or its
 * console session is signed out, the stream ends before it sends another event. The whole API over
 * a real database; the job's events are written as the workflow's activity writes them.
 */
import assert from 'node:assert/strict';
import { newJobRecord } from '../../../api/agent/create-job.js';
import type { NewJobEvent } from '../../../core/jobs/index.js';
import { openSse } from '../../support/sse-client.js';
import { twoOrgApi } from '../../support/services.js';

describe('job event stream: a revoked credential ends it', function () {
  this.timeout(60_000);
  let world: Awaited<ReturnType<typeof twoOrgApi>>;

  before(async () => {
    world = await twoOrgApi({ withTemporal: false });
    await world.services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
  });

  /** An active job with one event, and a way to log the next one as the workflow would. */
  async function runningJob() {
    const job = newJobRecord({ projectId: 'docs', repository: '/srv/docs.git', ref: 'main', model: 'm' });
    await world.services.jobs.create(job);
    const event = (key: string, type: NewJobEvent['type']): NewJobEvent => ({ key, type, time: new Date().toISOString(), jobId: job.id, projectId: 'docs', data: {} });
    await world.services.events.record(job, [event('turn:1:started', 'turn.started')]);
    return { job, logStep: (step: number) => world.services.events.record(job, [event(`turn:1:step:${step}`, 'tool.step')]) };
  }

  const revoke = async (keyId: string) => {
    const reply = await fetch(`${world.url}/v2/admin/keys/${keyId}`, { method: 'DELETE', headers: { authorization: `Bearer ${world.acme.adminKey}` } });
    assert.equal(reply.status, 204);
  };

  it('a stream opened with a key that is then revoked ends without the next event', async () => {
    const second = await world.services.tenants.createKey('acme', 'admin');
    const { job, logStep } = await runningJob();
    const stream = await openSse(`${world.url}/v2/agent/docs/job/${job.id}/events`, { authorization: `Bearer ${second.secret}` });
    assert.equal(stream.status, 200);
    assert.equal((await stream.next())?.event, 'turn.started');
    await revoke(second.record.id);
    await logStep(1);
    assert.equal(await stream.next(), undefined, 'the stream ended rather than sending the step');
  });

  it('a stream opened with a console session whose key is then revoked ends without the next event', async () => {
    const second = await world.services.tenants.createKey('acme', 'admin');
    const signIn = await fetch(`${world.url}/console/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: second.secret }) });
    assert.equal(signIn.status, 201);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const { job, logStep } = await runningJob();
    const stream = await openSse(`${world.url}/v2/agent/docs/job/${job.id}/events`, { cookie });
    assert.equal(stream.status, 200);
    assert.equal((await stream.next())?.event, 'turn.started');
    await revoke(second.record.id);
    await logStep(1);
    assert.equal(await stream.next(), undefined, 'the stream ended rather than sending the step');
  });

  it('a stream whose credential stays in force goes on', async () => {
    const { job, logStep } = await runningJob();
    const stream = await openSse(`${world.url}/v2/agent/docs/job/${job.id}/events`, { authorization: `Bearer ${world.acme.adminKey}` });
    assert.equal((await stream.next())?.event, 'turn.started');
    await logStep(1);
    assert.equal((await stream.next())?.event, 'tool.step');
    stream.close();
  });
});
