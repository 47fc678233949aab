import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createApp } from '../../../api/app.js';
import { healthRouter } from '../../../api/health.js';
import { createLogger } from '../../../core/logger.js';
import { seedOrg, serve, testServices } from '../../support/services.js';

describe('every request: its id and its log line', () => {
  it('is written while `info` is on and skipped while it is off, the level read per request', async () => {
    const lines: Array<{ msg?: string; path?: string; status?: number; ms?: number; requestId?: string }> = [];
    const logger = createLogger('warn', 'test', new Writable({ write: (chunk: Buffer, _e, done) => void (lines.push(JSON.parse(chunk.toString())), done()) }));
    const services = await testServices({ withTemporal: false, logger });
    const { url } = await serve(createApp(services, [healthRouter]));
    const requests = () => lines.filter((l) => l.msg === 'request');

    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    assert.equal(requests().length, 0);

    logger.level = 'info';
    const res = await fetch(`${url}/healthz`);
    assert.equal(res.status, 200);
    const [line] = requests();
    assert.ok(line, 'the request was logged');
    assert.equal(line.path, '/healthz');
    assert.equal(line.status, 200);
    assert.equal(typeof line.ms, 'number');
    assert.equal(line.requestId, res.headers.get('x-request-id'));

    logger.level = 'error';
    await fetch(`${url}/nope`);
    assert.equal(requests().length, 1);
  });

  it("a job route's lines name the job and its workflow, as the worker's lines do, beside the request id and organisation", async () => {
    const lines: Array<{ msg?: string; jobId?: string; workflowId?: string; org?: string; requestId?: string; path?: string }> = [];
    const logger = createLogger('info', 'test', new Writable({ write: (chunk: Buffer, _e, done) => void (lines.push(JSON.parse(chunk.toString())), done()) }));
    const services = await testServices({ withTemporal: false, logger });
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: '/srv/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    const { url } = await serve(createApp(services));
    assert.equal((await fetch(`${url}/v2/agent/docs/jobs`, { headers: { authorization: `Bearer ${adminKey}` } })).status, 200);
    const jobId = 'job_0123456789abcdefghij';
    const res = await fetch(`${url}/v2/agent/docs/job/${jobId}`, { headers: { authorization: `Bearer ${adminKey}` } });
    assert.equal(res.status, 404);
    const line = lines.find((l) => l.msg === 'request' && l.path === `/v2/agent/docs/job/${jobId}`);
    assert.ok(line, JSON.stringify(lines));
    assert.deepEqual([line.jobId, line.workflowId, line.org, line.requestId], [jobId, jobId, 'acme', res.headers.get('x-request-id')]);
    const other = lines.find((l) => l.msg === 'request' && l.path !== line.path);
    assert.ok(other, 'the listing was logged too');
    assert.equal(other.jobId, undefined, 'only routes of one job name it');
  });

  it('echoes a sane X-Request-Id and replaces any other with a new one', async () => {
    const services = await testServices({ withTemporal: false });
    const { url } = await serve(createApp(services, [healthRouter]));
    const idOf = async (given?: string) => (await fetch(`${url}/healthz`, given === undefined ? {} : { headers: { 'x-request-id': given } })).headers.get('x-request-id');
    assert.equal(await idOf('trace-42.a_b'), 'trace-42.a_b');
    for (const given of [undefined, '', 'has space', 'x'.repeat(129), 'naïve']) {
      const id = await idOf(given);
      assert.match(id ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, String(given));
    }
  });
});
