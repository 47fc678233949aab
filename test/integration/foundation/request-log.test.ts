import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createApp } from '../../../api/app.js';
import { healthRouter } from '../../../api/health.js';
import { createLogger } from '../../../core/logger.js';
import { serve, testServices } from '../../support/services.js';

describe('the request log line', () => {
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
});
