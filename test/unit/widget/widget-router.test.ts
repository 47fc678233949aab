import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { widgetRouter } from '../../../api/widget/index.js';
import { loadConfig } from '../../../core/config.js';

describe('widget router', () => {
  it('is built from its slice alone (the configuration) and serves the bundle it is given', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-widget-'));
    const bundlePath = path.join(dir, 'widget.js');
    await fs.writeFile(bundlePath, 'window.quireWidget = 1;');
    const app = new Koa();
    app.use(widgetRouter({ config: loadConfig({ QUIRE_DATA_DIR: dir, LOG_LEVEL: 'silent' }) }, { bundlePath }).routes());
    const server = app.listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/widget.js`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
      assert.equal(await res.text(), 'window.quireWidget = 1;');
    } finally {
      server.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
