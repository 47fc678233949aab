import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { runGit as agentGit } from '../../../activities/agent/git.js';
import { ApplicationFailure } from '@temporalio/common';
import { prepareWorkspace } from '../../../activities/agent/workspace.js';
import { DocsFolderOutsideError, GitCommandError, gitEnvironment, runGit, withoutCredentials } from '../../../core/git/index.js';
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

/** A git host that takes the connection and then says nothing; resolves with its port. */
async function silentGitHost(): Promise<number> {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((socket) => void sockets.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  onSuiteEnd(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => silent.close(() => resolve()));
  });
  return (silent.address() as AddressInfo).port;
}

/** How many processes of this machine have a command line (NUL-separated) that `matches`. */
async function processesWhose(matches: (cmdline: string) => boolean): Promise<number> {
  const pids = (await fs.readdir('/proc')).filter((pid) => /^\d+$/.test(pid));
  const commands = await Promise.all(pids.map((pid) => fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')));
  return commands.filter(matches).length;
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

  it('stops a command waiting on a host that never answers when its signal aborts, the transport helper with it', async () => {
    const port = await silentGitHost();
    /** Processes whose command line names the host: git, and the transport helper it starts. */
    const helpers = () => processesWhose((cmd) => cmd.includes(`127.0.0.1:${port}/`));
    const stop = new AbortController();
    const listing = runGit(await tempDir(), ['ls-remote', `http://127.0.0.1:${port}/acme/docs.git`], { signal: stop.signal });
    // Until git and its helper are waiting on the host.
    while ((await helpers()) < 2) await new Promise((r) => setTimeout(r, 20));
    stop.abort(new Error('the activity was cancelled'));
    await assert.rejects(listing, /git ls-remote was stopped: the activity was cancelled/);
    for (let i = 0; (await helpers()) > 0 && i < 100; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await helpers(), 0, 'no git process of the command is left');
    await assert.rejects(runGit(await tempDir(), ['status'], { signal: stop.signal }), /was stopped/, 'an aborted signal starts nothing');

    // The agent's git in an activity: cancelling the activity (an archive, its timeout) stops the command.
    const activity = new MockActivityEnvironment();
    const cwd = await tempDir();
    const agentListing = activity.run(() => agentGit(cwd, ['ls-remote', `http://127.0.0.1:${port}/acme/docs.git`], { authorName: 'Quire', authorEmail: 'quire@example.com' }));
    while ((await helpers()) < 2) await new Promise((r) => setTimeout(r, 20));
    activity.cancel('CANCELLED');
    await assert.rejects(agentListing, /git ls-remote was stopped/);
    for (let i = 0; (await helpers()) > 0 && i < 100; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await helpers(), 0);
  });

  it('takes its git commands with it when its process is killed outright (SIGKILL)', async () => {
    // The command waits on the silent host until stopped.
    const url = `http://127.0.0.1:${await silentGitHost()}/acme/docs.git`;
    /** git processes (not their transport helpers) whose command line names the host. */
    const gits = () => processesWhose((cmd) => cmd.startsWith('git\u0000') && cmd.includes(url));
    // A process (as a worker is) running the command, then killed with no chance to stop it.
    const script = `require('tsx/cjs'); require(${JSON.stringify(path.resolve(__dirname, '../../../core/git/run-git.ts'))}).runGit(${JSON.stringify(await tempDir())}, ['ls-remote', ${JSON.stringify(url)}]).catch(() => undefined);`;
    const worker = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    while ((await gits()) < 1) await new Promise((r) => setTimeout(r, 20));
    worker.kill('SIGKILL');
    for (let i = 0; (await gits()) > 0 && i < 250; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await gits(), 0, 'the killed process left its git running');
  });

  it("keeps a domain's or project's docs folder inside its repository: no '..', no link leading out", async () => {
    // A repository whose 'linked' folder is a link to the machine's own files.
    const seed = await tempDir('quire-linked-');
    await runGit(seed, ['init', '-q', '--initial-branch=main']);
    await fs.mkdir(path.join(seed, 'docs'));
    await fs.writeFile(path.join(seed, 'docs', 'index.mdx'), '# Docs\n');
    await fs.symlink('/usr/share', path.join(seed, 'linked'));
    await runGit(seed, ['add', '-A']);
    await runGit(seed, ['commit', '-q', '-m', 'docs and a link'], { identity: { name: 'T', email: 't@example.com' } });
    const bare = path.join(await tempDir('quire-linked-bare-'), 'docs.git');
    await runGit(seed, ['clone', '-q', '--bare', seed, bare]);

    const cache = await tempDir();
    assert.equal(await checkoutDocs(bare, 'main', '/docs/', cache), path.join(cache, (await fs.readdir(cache))[0]!, 'docs'));
    await assert.rejects(checkoutDocs(bare, 'main', 'linked', cache), (e: unknown) => e instanceof DocsFolderOutsideError && /leads outside the repository/.test(e.message));
    await assert.rejects(checkoutDocs(bare, 'main', 'docs/../../..', cache), DocsFolderOutsideError);
    // A run killed mid-command leaves git's locks in the checkout: the next run starts the checkout afresh.
    const [checkout] = await fs.readdir(cache);
    await fs.writeFile(path.join(cache, checkout!, '.git', 'index.lock'), '');
    await fs.writeFile(path.join(cache, checkout!, '.git', 'shallow.lock'), '');
    assert.match(await fs.readFile(path.join(await checkoutDocs(bare, 'main', 'docs', cache), 'index.mdx'), 'utf8'), /# Docs/);
    // The agent's workspace refuses the same, as a job error of the project's setup.
    const ws = prepareWorkspace({
      dataDir: await tempDir(),
      jobId: 'job_linked',
      branch: 'quire/job_linked',
      project: { id: 'docs', orgId: 'acme', repository: bare, branch: 'main', docsPath: 'linked', forge: 'local', allowedModels: [], createdAt: '', updatedAt: '' },
      auth: { authorName: 'Quire', authorEmail: 'quire@example.com' },
    });
    await assert.rejects(ws, (e: unknown) => e instanceof ApplicationFailure && e.type === 'DocsFolderOutside' && e.nonRetryable === true);
  });

  it('follows no redirect when told not to: the host checked is the only one git talks to', async () => {
    const elsewhere = await recordingRemote();
    const redirecting = http.createServer((req, res) => res.writeHead(301, { location: `${elsewhere.url}${req.url ?? '/'}` }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    onSuiteEnd(() => new Promise<void>((resolve) => redirecting.close(() => resolve())));
    const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/acme/docs.git`;
    await assert.rejects(runGit(await tempDir(), ['ls-remote', url], { followRedirects: false }), GitCommandError);
    assert.deepEqual(elsewhere.urls, [], 'the redirect was not followed');
    // By default git follows the first request's redirect (a renamed repository).
    await assert.rejects(runGit(await tempDir(), ['ls-remote', url]), GitCommandError);
    assert.ok(elsewhere.urls.length > 0, 'followed when allowed');
  });

  it('connects to the pinned addresses of a host, resolving nothing itself', async () => {
    const remote = await recordingRemote();
    const port = new URL(remote.url).port;
    // A name no resolver knows: git reaches the remote only through the pin.
    const url = `http://docs.pinned.invalid:${port}/acme/docs.git`;
    await assert.rejects(runGit(await tempDir(), ['ls-remote', url], { pin: `docs.pinned.invalid:${port}:127.0.0.1` }), GitCommandError);
    assert.ok(remote.urls.some((u) => u.startsWith('/acme/docs.git/info/refs')), 'git asked the pinned address');
    const heard = remote.urls.length;
    await assert.rejects(runGit(await tempDir(), ['ls-remote', url]), (e: unknown) => e instanceof GitCommandError && /resolve host/i.test(e.stderr));
    assert.equal(remote.urls.length, heard, 'without the pin the name resolves nowhere');
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
