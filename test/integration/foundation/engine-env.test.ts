/**
 * The engine children of `npm start` (Temporal's dev server, the local embedder) run with the basics
 * of the start command's environment only: never a model key, a database URL or a forge token it was
 * given. The built spawner (as the start command runs it) starts `env`, whose output is read back.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../support/temporal.js';

describe('the environment of the start command’s engine children', () => {
  it('holds PATH and HOME, and none of the secrets the start command has', async () => {
    // The compiled module, as `npm start` runs it: its child guard is a built file beside it.
    const { spawnGuarded } = (await import(path.join(REPO_ROOT, 'dist', 'infra', 'supervised-process.js'))) as typeof import('../../../infra/supervised-process.js');
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-engine-env-'));
    const logFile = path.join(dir, 'env.log');
    const secrets = { QUIRE_MODEL_API_KEY: 'sk-engine-env-0123456789', QUIRE_DATABASE_URL: 'postgres://quire:pw-engine@db/quire', ACME_GITHUB_TOKEN: 'ghp_engineEnv0123456789abcdefgh' };
    Object.assign(process.env, secrets);
    try {
      const child = spawnGuarded('/usr/bin/env', [], logFile);
      await new Promise((resolve) => child.once('exit', resolve));
    } finally {
      for (const name of Object.keys(secrets)) delete process.env[name];
    }
    const seen = await fs.readFile(logFile, 'utf8');
    await fs.rm(dir, { recursive: true, force: true });
    assert.match(seen, /^PATH=/m);
    assert.match(seen, /^HOME=/m);
    for (const [name, value] of Object.entries(secrets)) {
      assert.doesNotMatch(seen, new RegExp(`^${name}=`, 'm'));
      assert.ok(!seen.includes(value), name);
    }
  });
});
