import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CONSOLE_FIRST_LOAD_LIMIT_BYTES } from '../../../core/console-bundle.js';
import { buildConsole } from '../../../infra/build-console.js';

describe('the console bundle', () => {
  let outDir: string;
  before(async () => {
    outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-console-'));
  });
  after(() => fs.rm(outDir, { recursive: true, force: true }));

  it('loads under 200 KiB gzip on a first visit, from hashed files that index.html names, with no inline script or style', async () => {
    const built = await buildConsole(outDir);
    assert.ok(built.firstLoadGzipBytes > 0);
    assert.ok(built.firstLoadGzipBytes <= CONSOLE_FIRST_LOAD_LIMIT_BYTES, `first load ${built.firstLoadGzipBytes} bytes gzip, limit ${CONSOLE_FIRST_LOAD_LIMIT_BYTES}`);
    const html = await fs.readFile(path.join(outDir, 'index.html'), 'utf8');
    const named = built.assets.filter((asset) => /^\/console\/assets\/main-[A-Z0-9]+\.(js|css)$/.test(asset));
    assert.equal(named.length, 2, 'one script and one stylesheet');
    for (const asset of named) assert.ok(html.includes(asset), `index.html loads ${asset}`);
    for (const asset of [...built.assets, ...built.lazy]) {
      assert.match(asset, /^\/console\/assets\/(main|chunk)-[A-Z0-9]+\.(js|css)$/);
      await fs.access(path.join(outDir, 'assets', path.basename(asset)));
    }
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    assert.doesNotMatch(html, /<style|style=/, 'no inline style');
  });

  it('leaves markdown-it, which only the thread page needs, out of the first load, for the thread page to import', async () => {
    const built = await buildConsole(outDir);
    const hasMarkdownIt = async (asset: string) => (await fs.readFile(path.join(outDir, 'assets', path.basename(asset)), 'utf8')).includes("markdown-it' preset");
    for (const asset of built.assets) assert.equal(await hasMarkdownIt(asset), false, `${asset} is loaded first`);
    assert.equal((await Promise.all(built.lazy.map(hasMarkdownIt))).filter(Boolean).length, 1, 'one chunk imported later has it');
  });
});
