/**
 * The container image's two stages as the Dockerfile lays them out, without a Docker engine: the
 * build stage's files are exactly what its COPY lines bring in (with this checkout's installed
 * node_modules in place of `npm ci`), `npm run build` must succeed there; the final stage is
 * exactly what its COPY lines take from the build stage and the context, and the API started from
 * it serves the console, the widget and the OpenAPI document. A source directory the build needs
 * but the Dockerfile does not copy fails here, as it would fail the image's build.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../support/redis.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { spawnBuilt } from '../../support/worker-process.js';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const run = promisify(execFile);

interface Copy {
  from: string | undefined;
  sources: string[];
  dest: string;
}

/** The COPY instructions of each stage, in order (`--from=STAGE` kept, other flags refused). */
function stagesOf(dockerfile: string): Copy[][] {
  const stages: Copy[][] = [];
  for (const line of dockerfile.split('\n').map((l) => l.trim())) {
    if (/^FROM\s/i.test(line)) stages.push([]);
    const copy = /^COPY\s+(.*)$/i.exec(line);
    if (!copy) continue;
    const words = copy[1]!.split(/\s+/);
    let from: string | undefined;
    while (words[0]?.startsWith('--')) {
      const flag = words.shift()!;
      const stage = /^--from=(.+)$/.exec(flag);
      assert.ok(stage, `a COPY flag this test does not model: ${flag}`);
      from = stage[1];
    }
    const dest = words.pop()!;
    stages.at(-1)!.push({ from, sources: words, dest });
  }
  return stages;
}

/** Applies one COPY into `target` (the stage's WORKDIR), reading sources below `context`. */
async function apply(copy: Copy, context: string, target: string): Promise<void> {
  const intoDir = copy.dest.endsWith('/') || copy.sources.length > 1;
  for (const source of copy.sources) {
    const from = path.join(context, source);
    const to = intoDir ? path.join(target, copy.dest, path.basename(source)) : path.join(target, copy.dest);
    await fs.mkdir(path.dirname(to), { recursive: true });
    await fs.cp(from, to, { recursive: true });
  }
}

describe('the container image layout (Dockerfile)', function () {
  this.timeout(240_000);

  it('builds from what the build stage copies, and the final stage serves the console, the widget and the API document', async () => {
    const dockerfile = await fs.readFile(path.join(ROOT, 'Dockerfile'), 'utf8');
    const [build, final] = stagesOf(dockerfile);
    assert.ok(build && final, 'two stages');
    // The build context leaves out what .dockerignore names (top-level names only): none of it may be a COPY source.
    const ignored = (await fs.readFile(path.join(ROOT, '.dockerignore'), 'utf8')).split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    assert.ok(ignored.every((l) => /^[\w.-]+$/.test(l)), `.dockerignore holds top-level names only: ${ignored.join(' ')}`);
    for (const copy of [...build, ...final].filter((c) => c.from === undefined))
      for (const source of copy.sources) assert.ok(!ignored.includes(source.split('/')[0]!), `${source} is copied but .dockerignore leaves it out of the context`);
    assert.match(dockerfile, /^FROM\s+\S+\s+AS\s+build$/im);
    assert.match(dockerfile, /^WORKDIR \/app$/m);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-image-'));
    onSuiteEnd(() => fs.rm(dir, { recursive: true, force: true }));
    const buildDir = path.join(dir, 'build');
    const finalDir = path.join(dir, 'final');

    for (const copy of build) await apply(copy, ROOT, buildDir);
    // `npm ci` in the image; the dependencies this checkout installed here.
    await fs.symlink(path.join(ROOT, 'node_modules'), path.join(buildDir, 'node_modules'));
    await run('npm', ['run', '--silent', 'build'], { cwd: buildDir, maxBuffer: 16 << 20 });

    for (const copy of final) {
      if (copy.from === 'build') {
        assert.ok(copy.sources.every((s) => s.startsWith('/app/')), `copies from the build stage's /app: ${copy.sources.join(' ')}`);
        if (copy.sources.includes('/app/node_modules')) continue; // the pruned dependencies: this checkout's, linked below
        await apply({ ...copy, sources: copy.sources.map((s) => s.slice('/app/'.length)) }, buildDir, finalDir);
      } else {
        assert.equal(copy.from, undefined, `a COPY --from this test does not model: ${copy.from}`);
        await apply(copy, ROOT, finalDir);
      }
    }
    await fs.symlink(path.join(ROOT, 'node_modules'), path.join(finalDir, 'node_modules'));
    await fs.access(path.join(finalDir, 'dist', 'workflow-bundle.js'));

    const port = await freePort();
    const dataDir = path.join(dir, 'data');
    // As the image runs it: node dist/api/server.js in its WORKDIR.
    const api = spawnBuilt(
      path.join(finalDir, 'dist', 'api', 'server.js'),
      { PORT: String(port), HOST: '127.0.0.1', QUIRE_DATA_DIR: dataDir, QUIRE_METRICS_PORT: '0', QUIRE_EMBEDDER: 'none', TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` },
      { cwd: finalDir },
    );
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const up = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
      if (up) break;
      assert.ok(i < 300 && api.child.exitCode === null, `the API from the final stage did not start: ${api.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const consolePage = await fetch(`${base}/console`);
    assert.equal(consolePage.status, 200, await consolePage.clone().text());
    // Its assets are named relative to the page (so a proxy's path prefix keeps them), and are served there.
    const script = /<script[^>]+src="(\.\/console\/assets\/[^"]+\.js)"/.exec(await consolePage.text());
    assert.ok(script, 'the console page loads its script');
    assert.equal((await fetch(new URL(script[1]!, `${base}/console`))).status, 200, 'the console script is served where the page names it');
    const widget = await fetch(`${base}/widget.js`);
    assert.equal(widget.status, 200);
    assert.ok((await widget.text()).length > 10_000, 'the widget bundle');
    const document = await fetch(`${base}/openapi.json`);
    assert.equal(document.status, 200);
    assert.equal(((await document.json()) as { openapi: string }).openapi, '3.1.0');
  });
});
