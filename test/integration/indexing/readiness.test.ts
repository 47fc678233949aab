import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.js';
import { healthRouter } from '../../../api/health.js';
import { loadConfig } from '../../../core/config.js';
import { startFakeQdrant } from '../../fakes/qdrant-server.js';
import { freePort } from '../../support/redis.js';
import { serve, servicesOn, tempDir } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';
import { onSuiteEnd } from '../../support/teardown.js';

interface Ready {
  status: number;
  body: { error?: string; checks: Record<string, string> };
}

/** /readyz of an API built as the entry point builds it, on the suite's real Temporal. */
async function readyz(env: Record<string, string>): Promise<Ready> {
  const config = loadConfig({ QUIRE_DATA_DIR: await tempDir(), TEMPORAL_ADDRESS: (await temporalEnv()).address, LOG_LEVEL: 'silent', ...env });
  const services = await servicesOn(config);
  const { url } = await serve(createApp(services, [healthRouter]));
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: (await res.json()) as Ready['body'] };
}

describe('/readyz checks every configured engine', function () {
  it('answers 503 naming Qdrant when QDRANT_URL points at a Qdrant that does not answer', async () => {
    const ready = await readyz({ QDRANT_URL: `http://127.0.0.1:${await freePort()}` });
    assert.equal(ready.status, 503);
    assert.match(ready.body.error ?? '', /qdrant/);
    assert.match(ready.body.checks.qdrant ?? '', /^down/);
    assert.equal(ready.body.checks.temporal, 'ok');
  });

  it('answers 200 with every check ok when Qdrant (the fake, standing in for it) answers', async () => {
    const qdrant = await startFakeQdrant();
    onSuiteEnd(qdrant.close);
    const ready = await readyz({ QDRANT_URL: qdrant.url });
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body.checks, { temporal: 'ok', database: 'ok', qdrant: 'ok' });
  });

  it('checks the embedded index without QDRANT_URL', async () => {
    const ready = await readyz({});
    assert.equal(ready.status, 200);
    assert.equal(ready.body.checks.index, 'ok');
  });
});
