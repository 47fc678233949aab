/**
 * The forge clients' requests, against plain HTTP servers standing in for a GitLab or GitHub host
 * that redirects elsewhere, answers without end, or never answers (neither can run here).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { forgeClients } from '../../../core/forge/forge-clients.js';
import { GitlabHttpError, requestOnce } from '../../../core/forge/gitlab-requester.js';
import { onSuiteEnd } from '../../support/teardown.js';

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  onSuiteEnd(() => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('GitLab requests', () => {
  it('follows no redirect, so the token never reaches the host a redirect names', async () => {
    const seen: Array<string | undefined> = [];
    const elsewhere = await serve((req, res) => {
      seen.push(req.headers['private-token'] as string | undefined);
      res.end('{}');
    });
    const gitlab = await serve((_req, res) => res.writeHead(302, { location: `${elsewhere}/internal/admin` }).end());
    await assert.rejects(
      requestOnce('projects/1', { prefixUrl: `${gitlab}/api/v4`, headers: { 'PRIVATE-TOKEN': 'glpat-secret-token-0001' } }),
      (e: unknown) => e instanceof GitlabHttpError && e.status === 302 && /redirect \(302\), which is not followed/.test(e.message),
    );
    assert.deepEqual(seen, []);
  });

  it('reads at most 10 MB of an answer', async () => {
    const gitlab = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < 50 && res.write(chunk)) sent++;
        if (sent < 50) res.once('drain', more);
        else res.end();
      };
      more();
    });
    await assert.rejects(requestOnce('projects/1', { prefixUrl: `${gitlab}/api/v4` }), (e: unknown) => e instanceof GitlabHttpError && /passed 10485760 bytes/.test(e.message));
  });
});

describe('GitHub requests', () => {
  it('give up on a host that never answers at the request deadline', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    onSuiteEnd(() => {
      silent.closeAllConnections();
      return new Promise<void>((r) => silent.close(() => r()));
    });
    const clients = forgeClients({ githubApiUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` }, { requestTimeoutMs: 300 });
    const octokit = await clients.github('ghp_test_token_0000000000000000');
    await assert.rejects(octokit.rest.repos.get({ owner: 'acme', repo: 'docs' }), (e: unknown) => e instanceof Error && /aborted|timeout/i.test(e.message));
  });
});
