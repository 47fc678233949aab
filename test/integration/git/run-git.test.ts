import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gitEnvironment, runGit, withoutCredentials } from '../../../core/git/index.js';
import { checkoutDocs } from '../../../core/retrieval/docs-source.js';
import { tempDir } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

/** Stands in for a forge's git-over-HTTPS endpoint (GitHub, GitLab): records what git sends, then refuses. */
async function recordingRemote(): Promise<{ url: string; authorizations: string[]; urls: string[] }> {
  const authorizations: string[] = [];
  const urls: string[] = [];
  const server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization ?? '');
    urls.push(req.url ?? '');
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onSuiteEnd(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, authorizations, urls };
}

describe('git runner (real git)', () => {
  it('sends credentials from the source URL per command, and never writes or reports them', async () => {
    const remote = await recordingRemote();
    const secret = 'hunter2-secret-token';
    const source = remote.url.replace('http://', `http://docs-bot:${secret}@`) + '/acme/docs.git';
    const cache = await tempDir();
    const err: unknown = await checkoutDocs(source, 'main', '', cache).then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof Error, 'the refused fetch fails');
    assert.ok(!err.message.includes(secret), err.message);
    assert.deepEqual(remote.authorizations.filter(Boolean)[0], `Basic ${Buffer.from(`docs-bot:${secret}`).toString('base64')}`);
    assert.ok(remote.urls.every((u) => !u.includes(secret)));
    const [clone] = await fs.readdir(cache);
    const config = await fs.readFile(path.join(cache, clone!, '.git', 'config'), 'utf8');
    assert.ok(!config.includes(secret) && !config.includes('docs-bot'), config);
  });

  it('splits credentials off https URLs only', () => {
    assert.deepEqual(withoutCredentials('https://x-access-token:t%40k@github.com/a/b.git'), {
      url: 'https://github.com/a/b.git',
      credentials: { username: 'x-access-token', password: 't@k' },
    });
    assert.deepEqual(withoutCredentials('git@github.com:a/b.git'), { url: 'git@github.com:a/b.git' });
    assert.deepEqual(withoutCredentials('/srv/repos/docs.git'), { url: '/srv/repos/docs.git' });
  });

  it('runs with a clean environment: no user config, no home, no inherited secrets, proxies kept', async () => {
    const saved = { ...process.env };
    try {
      process.env.QUIRE_TEST_LEAK = 'should-not-pass';
      process.env.HTTPS_PROXY = 'http://proxy.internal:3128';
      const env = gitEnvironment({});
      assert.equal(env.QUIRE_TEST_LEAK, undefined);
      assert.equal(env.HTTPS_PROXY, 'http://proxy.internal:3128');
      assert.equal(env.HOME, '/nonexistent');
      const repo = await tempDir();
      await runGit(repo, ['init', '-q']);
      const origins = await runGit(repo, ['config', '--list', '--show-origin']);
      assert.ok(origins.split('\n').filter(Boolean).every((line) => line.startsWith('file:.git/config')), origins);
    } finally {
      process.env = saved;
    }
  });
});
