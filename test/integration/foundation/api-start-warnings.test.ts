import assert from 'node:assert/strict';
import path from 'node:path';
import { freePort } from '../../support/redis.js';
import { tempDir } from '../../support/services.js';
import { REPO_ROOT } from '../../support/temporal.js';
import { spawnBuilt } from '../../support/worker-process.js';

describe('the API starting without Temporal', function () {
  this.timeout(60_000);

  it('serves, and warns once at start that Temporal does not answer at its address, naming the variable', async () => {
    const port = await freePort();
    const api = spawnBuilt(path.join(REPO_ROOT, 'dist', 'api', 'server.js'), {
      QUIRE_DATA_DIR: await tempDir(),
      QUIRE_EMBEDDER: 'none',
      HOST: '127.0.0.1',
      PORT: String(port),
      QUIRE_METRICS_PORT: '0',
      TEMPORAL_ADDRESS: '127.0.0.1:1',
    });
    for (let i = 0; !/Temporal does not answer/.test(api.output()); i++) {
      if (i > 200 || api.child.exitCode !== null) assert.fail(`no warning; the API said: ${api.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const warning = JSON.parse(api.output().split('\n').find((l) => l.includes('Temporal does not answer'))!) as { level: string; address: string; msg: string };
    assert.equal(warning.level, 'warn');
    assert.equal(warning.address, '127.0.0.1:1');
    assert.match(warning.msg, /TEMPORAL_ADDRESS: job and indexing routes answer 503 until it does/);
    assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200, 'the API serves meanwhile');
  });
});
