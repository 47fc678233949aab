import assert from 'node:assert/strict';
import path from 'node:path';
import { llmsRouter } from '../../../api/llms/index.js';
import { EmbeddedDocIndex, type PageListing } from '../../../core/retrieval/index.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { aiToolsWorld, EXAMPLE_DOCS } from './world.js';

/** The real embedded index, counting how often the router lists pages (that is, renders a file). */
class CountingIndex extends EmbeddedDocIndex {
  listings = 0;
  override listPages(domainId: string, options?: { content?: boolean }): Promise<PageListing[]> {
    this.listings++;
    return super.listPages(domainId, options);
  }
}

async function world(orgLimits?: Parameters<typeof aiToolsWorld>[0]['orgLimits']) {
  let counting: CountingIndex | undefined;
  const w = await aiToolsWorld({
    features: [
      (s) => {
        counting = new CountingIndex(path.join(s.config.dataDir, 'index'));
        return llmsRouter({ ...s, docIndex: counting });
      },
    ],
    ...(orgLimits ? { orgLimits } : {}),
  });
  onSuiteEnd(w.close);
  const get = (p: string, headers: Record<string, string> = {}) => fetch(`${w.url}/discovery/v1/llms/${p}`, { headers });
  return { ...w, get, counting: counting! };
}

describe('llms.txt and llms-full.txt per domain', () => {
  it('lists the searchable public pages in the llms.txt format, without a key', async () => {
    const w = await world();
    const res = await w.get('skylark.txt');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; charset=utf-8/);
    const text = await res.text();
    assert.ok(text.startsWith('# docs.skylark.dev\n\n> Skylark is a hosted queue for background jobs, with retries, schedules and webhooks built in.\n\n## '), text.slice(0, 200));
    assert.match(text, /## Documentation › Get started\n\n- \[Introduction\]\(https:\/\/docs\.skylark\.dev\/\): Skylark is a hosted queue[^\n]*\n- \[Quickstart\]\(https:\/\/docs\.skylark\.dev\/quickstart\): Create a project, push a job and run a worker\.\n/);
    assert.match(text, /## Legacy\n\n- \[[^\]]+\]\(https:\/\/docs\.skylark\.dev\/v1\/quickstart\)/);
    const links = text.split('\n').filter((l) => l.startsWith('- '));
    assert.equal(links.length, 19, 'the 20 indexed pages (the hidden one is not indexed) less the one restricted to a group');
    assert.ok(links.every((l) => /^- \[[^\]]+\]\(https:\/\/docs\.skylark\.dev\/[^)]*\)(: .+)?$/.test(l)), links.join('\n'));
    assert.ok(!text.includes('/enterprise/sso'), 'a page with access groups is not public');
    assert.ok(!text.includes('/internal/runbook'), 'a hidden page is not searchable');
    assert.equal(await (await w.get('skylark/llms.txt')).text(), text);
  });

  it('serves every public page\'s Markdown in llms-full.txt', async () => {
    const w = await world();
    const text = await (await w.get('skylark/llms-full.txt')).text();
    assert.ok(text.startsWith('# docs.skylark.dev\n\n> '));
    assert.match(text, /\n# Quickstart\n\nSource: https:\/\/docs\.skylark\.dev\/quickstart\n\n[^#]*This guide takes about five minutes\./);
    assert.equal(text.match(/^Source: /gm)?.length, 19);
    assert.ok(!/Okta|SAML/.test(text), 'the group-restricted page stays out');
  });

  it('renders once per index generation: cached, revalidated by ETag, invalidated by re-indexing', async () => {
    const w = await world();
    const first = await w.get('skylark.txt');
    const etag = first.headers.get('etag') ?? '';
    assert.match(etag, /^"[\w-]+"$/);
    assert.match(first.headers.get('cache-control') ?? '', /max-age=/);
    const again = await w.get('skylark.txt');
    assert.equal(again.headers.get('etag'), etag);
    assert.equal(await again.text(), await first.text());
    const notModified = await w.get('skylark.txt', { 'if-none-match': `"other", W/${etag}` });
    assert.equal(notModified.status, 304);
    assert.equal(await notModified.text(), '');
    assert.equal(w.counting.listings, 1, 'one rendering for three requests');

    await w.index.applyChanges('skylark', { upserts: [], removals: ['/quickstart'] });
    const after = await w.get('skylark.txt', { 'if-none-match': etag });
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.get('etag'), etag);
    assert.ok(!(await after.text()).includes('(https://docs.skylark.dev/quickstart)'));
    assert.equal(w.counting.listings, 2);

    // A new base URL changes every link, without a re-index.
    await w.services.tenants.putDomain({ id: 'skylark', orgId: 'acme', source: EXAMPLE_DOCS, docsPath: '', baseUrl: 'https://help.skylark.dev/docs', includeHidden: false });
    assert.match(await (await w.get('skylark.txt')).text(), /^# help\.skylark\.dev\n[\s\S]*\(https:\/\/help\.skylark\.dev\/docs\/concepts\/jobs\)/);
  });

  it('answers an unknown domain with 404 and counts each fetch against the per-IP limit', async () => {
    const w = await world({ assistantPerIpPerDay: 2 });
    const missing = await w.get('nope.txt');
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { error: "domain 'nope' not found", code: 'not_found' });
    assert.equal((await w.get('skylark.txt')).headers.get('ratelimit-remaining'), '1');
    assert.equal((await w.get('skylark/llms-full.txt')).status, 200);
    const spent = await w.get('skylark.txt');
    assert.equal(spent.status, 429);
    assert.ok(Number(spent.headers.get('retry-after')) > 0);
  });
});
