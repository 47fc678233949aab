import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import net from 'node:net';
import { freePort } from '../../support/redis.js';
import { tempDir, testConfig, testPlatform } from '../../support/services.js';
import { alive, descendants, listening, pidOf, readyz, start, waitFor } from '../../support/start-command.js';

describe('README command one (npm start) on the embedded defaults', function () {
  this.timeout(180_000);

  it('starts Temporal, the worker and the API, prints keys once, stops cleanly and reuses its data', async () => {
    const dataDir = await tempDir();
    const ports = { PORT: String(await freePort()), QUIRE_TEMPORAL_PORT: String(await freePort()), QUIRE_TEMPORAL_UI_PORT: String(await freePort()) };
    const env = { QUIRE_DATA_DIR: dataDir, ...ports };

    const first = start(env);
    const began = Date.now();
    const banner = await waitFor(first, /Press Ctrl-C to stop/, 90_000);
    const readyMs = Date.now() - began;
    assert.match(banner, new RegExp(`API\\s+http://127.0.0.1:${ports.PORT}`));
    assert.match(banner, new RegExp(`Temporal UI\\s+http://localhost:${ports.QUIRE_TEMPORAL_UI_PORT}`));
    const adminKey = /admin key\s+(quire_\S+)/.exec(banner)?.[1];
    const assistantKey = /assistant key\s+(quire_dsc_\S+)/.exec(banner)?.[1];
    assert.ok(adminKey && assistantKey, banner);
    const ready = await fetch(`http://127.0.0.1:${ports.PORT}/readyz`);
    assert.equal(ready.status, 200);
    console.log(`      (ready in ${readyMs} ms)`);

    // The first run indexes the example docs in the background; search finds them once it is done.
    let hits: unknown[] = [];
    for (let i = 0; i < 150 && hits.length === 0; i++) {
      const res = await fetch(`http://127.0.0.1:${ports.PORT}/discovery/v1/search/example-docs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${assistantKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'quickstart' }),
      });
      assert.equal(res.status, 200);
      hits = (await res.json()) as unknown[];
      if (hits.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(hits.length > 0, 'the example docs were indexed and are searchable');

    // The widget demo over the example docs: served by Quire, the key in the fragment.
    const demo = new RegExp(`(http://127.0.0.1:${ports.PORT}/widget/demo)#domain=example-docs&key=(\\S+)`).exec(banner);
    assert.ok(demo, banner);
    assert.equal(decodeURIComponent(demo[2]!), assistantKey);
    const page = await fetch(demo[1]!);
    assert.equal(page.status, 200);
    // The page loads the widget relative to itself (so a proxy's path prefix keeps it).
    assert.match(await page.text(), /src = '\.\.\/widget\.js'/);
    const widget = await fetch(new URL('../widget.js', demo[1]!));
    assert.equal(widget.status, 200, 'npm run build bundled the widget');
    assert.match(widget.headers.get('content-type') ?? '', /javascript/);

    first.child.kill('SIGINT');
    assert.equal(await first.exit, 0, first.output());
    assert.match(first.output(), /Stopped\./);
    for (const port of Object.values(ports)) assert.equal(await listening(Number(port)), false, `port ${port} closed after stop`);

    const second = start(env);
    const again = await waitFor(second, /Press Ctrl-C to stop/, 90_000);
    assert.ok(!/admin key/.test(again), 'keys are printed on the first run only');
    assert.match(again, /Widget demo\s+http:\/\/127\.0\.0\.1:\d+\/widget\/demo \(/);
    const store = (await testPlatform(await testConfig({ QUIRE_DATA_DIR: dataDir }))).tenants;
    assert.equal((await store.authenticate(adminKey))?.orgId, 'example');
    assert.equal((await store.listKeys()).length, 2);
    second.child.kill('SIGTERM');
    assert.equal(await second.exit, 0);
  });

  it('Ctrl-C during start-up still stops everything it started', async () => {
    const ports = { PORT: String(await freePort()), QUIRE_TEMPORAL_PORT: String(await freePort()), QUIRE_TEMPORAL_UI_PORT: String(await freePort()) };
    const s = start({ QUIRE_DATA_DIR: await tempDir(), ...ports });
    // Interrupt while the dev server is coming up, before the banner.
    while (!(await listening(Number(ports.QUIRE_TEMPORAL_PORT)))) await new Promise((r) => setTimeout(r, 50));
    s.child.kill('SIGINT');
    assert.equal(await s.exit, 0, s.output());
    assert.ok(!/Press Ctrl-C/.test(s.output()));
    for (const port of Object.values(ports)) assert.equal(await listening(Number(port)), false, `port ${port} closed`);
  });

  it('restarts a killed worker or API with backoff, leaving the rest running; killed itself, leaves no orphans', async () => {
    const ports = { PORT: String(await freePort()), QUIRE_TEMPORAL_PORT: String(await freePort()), QUIRE_TEMPORAL_UI_PORT: String(await freePort()) };
    const s = start({ QUIRE_DATA_DIR: await tempDir(), ...ports });
    await waitFor(s, /Press Ctrl-C to stop/, 90_000);
    const worker = pidOf(s, /worker\/main\.js/);
    const api = pidOf(s, /api\/server\.js/);
    const temporal = pidOf(s, /server start-dev/);

    process.kill(worker, 'SIGKILL');
    await waitFor(s, /the worker exited unexpectedly \(SIGKILL\); restarting it in 1s/, 30_000);
    const again = /the worker started again \(pid (\d+)\)/.exec(await waitFor(s, /the worker started again \(pid \d+\)/, 30_000));
    const worker2 = Number(again?.[1]);
    assert.notEqual(worker2, worker);
    assert.ok(alive(worker2) && alive(api) && alive(temporal), 'the new worker runs; the API and Temporal were left running');
    assert.equal(await readyz(ports.PORT), 200);

    process.kill(api, 'SIGKILL');
    await waitFor(s, /the api exited unexpectedly \(SIGKILL\); restarting it in 1s/, 30_000);
    await waitFor(s, /the api started again/, 30_000);
    let status = 0;
    for (let i = 0; i < 300 && status !== 200; i++) {
      status = await readyz(ports.PORT);
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 200, 'the restarted API is ready again');
    assert.ok(alive(worker2), 'the worker was left running');

    // Killed outright, the start command cannot stop anyone: each child notices and stops itself.
    const family = descendants(s.child.pid!).map((p) => p.pid);
    assert.ok(family.length >= 4, 'worker, API, the guard and Temporal');
    s.child.kill('SIGKILL');
    await s.exit;
    for (let i = 0; i < 300 && family.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(family.filter(alive), [], 'no process of the start command outlived it');
    for (const port of Object.values(ports)) assert.equal(await listening(Number(port)), false, `port ${port} closed`);
  });

  it('SIGTERM to its process group stops everything it started', async () => {
    const ports = { PORT: String(await freePort()), QUIRE_TEMPORAL_PORT: String(await freePort()), QUIRE_TEMPORAL_UI_PORT: String(await freePort()) };
    const s = start({ QUIRE_DATA_DIR: await tempDir(), ...ports }, { ownGroup: true });
    await waitFor(s, /Press Ctrl-C to stop/, 90_000);
    const family = descendants(s.child.pid!).map((p) => p.pid);
    process.kill(-s.child.pid!, 'SIGTERM');
    assert.equal(await s.exit, 0, s.output());
    assert.match(s.output(), /Stopped\./);
    assert.deepEqual(family.filter(alive), []);
    for (const port of Object.values(ports)) assert.equal(await listening(Number(port)), false, `port ${port} closed`);
  });

  it('refuses a port already in use, and bad configuration, with one clear message', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const busy = (blocker.address() as net.AddressInfo).port;
    const s = start({ QUIRE_DATA_DIR: await tempDir(), QUIRE_TEMPORAL_PORT: String(busy), PORT: String(await freePort()) });
    assert.equal(await s.exit, 1);
    assert.match(s.output(), new RegExp(`port ${busy} is already in use; stop the other process or set QUIRE_TEMPORAL_PORT`));
    blocker.close();

    const bad = start({ QUIRE_DATA_DIR: await tempDir(), PORT: 'http' });
    assert.equal(await bad.exit, 1);
    assert.match(bad.output(), /quire: error: invalid configuration:\n\s+PORT: must be a whole number/);

    // A data folder that is a file: the setting is named, not only the system call that failed.
    const file = path.join(await tempDir(), 'not-a-folder');
    await fs.writeFile(file, '');
    const notAFolder = start({ QUIRE_DATA_DIR: file, PORT: String(await freePort()) });
    assert.equal(await notAFolder.exit, 1);
    assert.match(notAFolder.output(), /quire: error: QUIRE_DATA_DIR: cannot use .*not-a-folder as the data folder \(EEXIST\)/);
  });
});
