import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createApp } from '../../../api/app.js';
import { searchRouter } from '../../../api/search/index.js';
import { DOMAIN_ID } from '../../../core/contracts/search-attributes.js';
import { indexProgressQuery, type IndexDomainResult } from '../../../core/contracts/index.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';
import { exampleDocsRepo } from './git-docs.js';
import { runIndexCli } from './index-cli.js';

const execFileAsync = promisify(execFile);

describe('indexing workflow on the real Temporal dev server, over a real git repository', function () {
  this.timeout(120_000);

  it('indexes once per domain at a time, incrementally, reports broken pages; the CLI shows the summary', async () => {
    const taskQueue = `index-${randomUUID()}`;
    const services = await testServices({ taskQueue });
    const org = await seedOrg(services);
    await services.tenants.addOrg('other');
    const repo = await exampleDocsRepo();
    await services.tenants.putDomain({
      id: 'skylark', orgId: org.orgId, source: repo.bareDir, branch: 'main', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false,
    });
    await services.tenants.putDomain({
      id: 'theirs', orgId: 'other', source: repo.bareDir, branch: 'main', docsPath: '', baseUrl: 'https://x.example.com', includeHidden: false,
    });
    const api = await serve(createApp(services, [searchRouter]));
    const admin = (method: string, domain: string, key = org.adminKey) =>
      fetch(`${api.url}/v1/admin/domains/${domain}/index`, { method, headers: { authorization: `Bearer ${key}` } });

    assert.equal((await admin('GET', 'skylark')).status, 404, 'never indexed');
    // No worker yet: both starts land on the same run.
    const first = await admin('POST', 'skylark');
    assert.equal(first.status, 202);
    const started = (await first.json()) as { workflowId: string; runId: string };
    assert.equal(started.workflowId, 'index-skylark');
    const again = (await (await admin('POST', 'skylark')).json()) as { runId: string };
    assert.equal(again.runId, started.runId);
    assert.equal((await admin('POST', 'theirs')).status, 404);
    assert.equal((await admin('POST', 'skylark', org.assistantKey)).status, 403);
    // Running with no worker to answer the progress query: the status comes without progress, not an error.
    const waiting = await admin('GET', 'skylark');
    assert.equal(waiting.status, 200);
    const pending = (await waiting.json()) as { status: string; progress?: unknown };
    assert.equal(pending.status, 'running');
    assert.equal(pending.progress, undefined);

    const worker = await startWorker(services, { taskQueue });
    const { client } = await temporalEnv();
    const handle = client.workflow.getHandle<() => Promise<IndexDomainResult>>('index-skylark', started.runId);
    const result = await handle.result();
    assert.deepEqual([result.added, result.updated, result.removed, result.brokenCount], [20, 0, 0, 0]);
    // History holds counts and positions, never the list of files, whatever the site's size (Temporal refuses payloads over 2 MB).
    const payloads = ((await handle.fetchHistory()).events ?? []).flatMap((e) => [
      ...(e.activityTaskScheduledEventAttributes?.input?.payloads ?? []),
      ...(e.activityTaskCompletedEventAttributes?.result?.payloads ?? []),
    ]);
    const texts = payloads.map((p) => Buffer.from(p.data ?? new Uint8Array()).toString('utf8'));
    assert.ok(texts.some((t) => t.includes('"pageCount":21')), texts.join('\n'));
    assert.ok(texts.some((t) => t.includes('"first":0') && t.includes('"count":250')), texts.join('\n'));
    assert.ok(texts.every((t) => !t.includes('quickstart.mdx')), 'no page file is named in history');
    const tip = (await execFileAsync('git', ['rev-parse', 'refs/heads/main'], { cwd: repo.bareDir })).stdout.trim();
    assert.equal(result.commit, tip, 'the run records the commit it indexed');
    assert.ok(result.chunks >= 40, `${result.chunks} chunks`);
    // 21 page files, one of them hidden: progress counts files, the summary counts indexed pages.
    assert.deepEqual(await handle.query(indexProgressQuery), { phase: 'done', done: 21, total: 21, embedded: 0 });
    const description = await handle.describe();
    assert.deepEqual(description.typedSearchAttributes.get(DOMAIN_ID), 'skylark');
    assert.equal(await description.staticSummary(), 'index the docs of domain skylark');
    const status = (await (await admin('GET', 'skylark')).json()) as { status: string; result: IndexDomainResult };
    assert.equal(status.status, 'completed');
    assert.equal(status.result.added, 20);

    // Edit one page, delete one, add a broken one to the navigation: only those are touched.
    // (An unlisted page is never searchable, so it is dropped before it is parsed and cannot be reported broken.)
    const docsJson = await fs.readFile(path.resolve(__dirname, '../../../infra/example-docs/docs.json'), 'utf8');
    const listed = docsJson.replace('"pages": ["index", "quickstart"]', '"pages": ["index", "quickstart", "broken"]');
    assert.notEqual(listed, docsJson);
    await repo.commit(
      {
        'guides/webhooks.mdx': '---\ntitle: Webhooks\n---\n\n## Signing\n\nDeliveries are signed with Ed25519 now.\n',
        'cli/config-file.md': null,
        'broken.mdx': '# Broken\n\n<Card title="x">\n',
        'docs.json': listed,
      },
      'edit docs',
    );
    const rerun = (await (await admin('POST', 'skylark')).json()) as { runId: string };
    assert.notEqual(rerun.runId, started.runId);
    const second = await client.workflow.getHandle<() => Promise<IndexDomainResult>>('index-skylark', rerun.runId).result();
    assert.deepEqual([second.added, second.updated, second.removed, second.unchanged], [0, 1, 1, 18]);
    assert.deepEqual(second.broken.map((b) => b.path), ['/broken']);
    assert.match(second.broken[0]!.reason, /MDX/);

    // The CLI joins a new run and prints the summary (nothing changed: all unchanged).
    const { code, printed } = await runIndexCli(services, taskQueue, 'skylark');
    assert.equal(code, 0, printed);
    assert.match(printed, /indexed skylark: 19 pages, 0 added, 0 updated, 0 removed, 19 unchanged/);
    assert.match(printed, /\/broken: /);
    await worker.stop();
  });
});
