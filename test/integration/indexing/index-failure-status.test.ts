import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createApp } from '../../../api/app.js';
import type { ApiServices } from '../../../api/services.js';
import { indexWorkflowId } from '../../../core/contracts/index.js';
import { startIndexRun } from '../../../core/index-runs/index.js';
import { conforms } from '../../support/openapi-conforms.js';
import { bearerCaller } from '../../support/json-calls.js';
import { seedOrg, serve, tempDir, testServices, type SeededOrg } from '../../support/services.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';
import { exampleDocsRepo } from './git-docs.js';

/**
 * A failed index run's status is shown to the organisation's admins (and in the console): its
 * `error` names the source as they configured it and the docs folder inside it, never a path of
 * the server (the worker's checkout, its data directory, a folder source).
 */
describe('a failed index run’s status names no server path', function () {
  this.timeout(120_000);
  let services: ApiServices;
  let url = '';
  let acme: SeededOrg;
  const admin = bearerCaller(() => url);

  before(async () => {
    const taskQueue = `index-failure-${randomUUID()}`;
    services = await testServices({ taskQueue });
    acme = await seedOrg(services, 'acme');
    ({ url } = await serve(createApp(services)));
    await startWorker(services, { taskQueue });
  });

  /** Indexes a new domain of acme over `source` through the admin API, waits for the run to fail, and answers its status. */
  async function failedStatus(source: string, docsPath: string): Promise<{ error: string; errorCode: string }> {
    const id = `broken-${randomUUID().slice(0, 8)}`;
    await services.tenants.putDomain({ id, orgId: acme.orgId, source, branch: 'main', docsPath, baseUrl: 'https://docs.acme.test', includeHidden: false });
    assert.equal((await admin('POST', `/v2/admin/domains/${id}/index`, acme.adminKey)).status, 202);
    await assert.rejects((await temporalEnv()).client.workflow.getHandle(indexWorkflowId(id)).result());
    const res = await admin('GET', `/v2/admin/domains/${id}/index`, acme.adminKey);
    assert.equal(res.status, 200);
    await conforms('/v2/admin/domains/{domainId}/index', 'get', res.clone());
    const status = (await res.json()) as { status: string; error: string | null; errorCode: string | null };
    assert.equal(status.status, 'failed');
    assert.ok(status.error && status.errorCode, JSON.stringify(status));
    return { error: status.error, errorCode: status.errorCode };
  }

  /** No absolute path at all, and none of the ones this test knows the server uses. */
  function assertNoServerPath(error: string, ...known: string[]): void {
    for (const p of [services.config.dataDir, ...known]) assert.ok(!error.includes(p), `'${error}' names ${p}`);
    assert.doesNotMatch(error, /(^|[\s'"(=])\/[^\s/]/, 'no absolute path');
    assert.doesNotMatch(error, /file:/);
  }

  it('a docs folder the repository lacks: the folder as the domain gives it, relative to the repository', async () => {
    const repo = await exampleDocsRepo();
    const { error, errorCode } = await failedStatus(repo.bareDir, '/site/');
    assert.equal(errorCode, 'docs_folder_missing');
    assert.match(error, /the docs folder 'site' of 'broken-\w+' is not in branch 'main' of the source \(a folder on the server\)/);
    assertNoServerPath(error, path.dirname(repo.bareDir));
  });

  it('a folder source that does not exist: the source said to be a folder on the server, not its path', async () => {
    const gone = path.join(await tempDir(), 'gone', 'docs');
    const { error, errorCode } = await failedStatus(gone, '');
    assert.equal(errorCode, 'checkout_failed');
    assert.match(error, /from the source \(a folder on the server\): no such folder/);
    assertNoServerPath(error, gone);
  });

  it('a repository that cannot be cloned: a URL as configured (credentials masked), a file URL not at all', async () => {
    const missing = path.join(await tempDir(), 'missing.git');
    const local = await failedStatus(`file://${missing}`, '');
    assert.equal(local.errorCode, 'checkout_failed');
    assert.match(local.error, /from the source \(a folder on the server\): git fetch failed/);
    assertNoServerPath(local.error, missing);

    const remote = await failedStatus('https://deploy:s3cret-token@127.0.0.1:1/acme/docs.git', 'docs');
    assert.equal(remote.errorCode, 'checkout_failed');
    assert.match(remote.error, /from the source 'https:\/\/127\.0\.0\.1:1\/acme\/docs\.git': git fetch failed/);
    assert.ok(!remote.error.includes('s3cret-token'));
    assertNoServerPath(remote.error);
  });

  it('a reason that names a server path anyway (a terminate, a failure of no known kind) answers with the path masked', async () => {
    const id = `stopped-${randomUUID().slice(0, 8)}`;
    await services.tenants.putDomain({ id, orgId: acme.orgId, source: 'https://git.acme.test/docs.git', docsPath: '', baseUrl: 'https://docs.acme.test', includeHidden: false });
    const { client } = await temporalEnv();
    // On a task queue no worker polls, so the run is still open when it is terminated.
    await startIndexRun(client, `nobody-${randomUUID()}`, id);
    await client.workflow.getHandle(indexWorkflowId(id)).terminate("the checkout moved to '/srv/quire/sources/x' (see file:///srv/quire/notes)");
    const status = (await (await admin('GET', `/v2/admin/domains/${id}/index`, acme.adminKey)).json()) as { status: string; error: string; errorCode: string };
    assert.equal(status.status, 'terminated');
    assert.equal(status.error, "the checkout moved to '[server path]' (see [server path])");
    assertNoServerPath(status.error, '/srv/quire');
  });
});
