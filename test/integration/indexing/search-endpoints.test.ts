import assert from 'node:assert/strict';
import path from 'node:path';
import { createApp } from '../../../api/app.js';
import { searchRouter } from '../../../api/search/index.js';
import { EmbeddedDocIndex } from '../../../core/retrieval/embedded-store.js';
import { indexDocs } from '../../../core/retrieval/index-docs.js';
import type { SearchHit } from '../../../core/retrieval/index.js';
import { seedOrg, serve, testServices } from '../../support/services.js';

const EXAMPLE_DOCS = path.resolve(__dirname, '..', '..', '..', 'infra', 'example-docs');

/** The search and page endpoints through the real app, over the example docs in a real embedded index. */
async function world(orgLimit?: number) {
  const services = await testServices({ withTemporal: false });
  if (orgLimit) await services.tenants.addOrg('acme', { assistantPerOrgPerHour: orgLimit });
  const org = await seedOrg(services);
  const other = await seedOrg(services, 'other');
  await services.tenants.putDomain({ id: 'skylark', orgId: 'acme', source: EXAMPLE_DOCS, docsPath: '', baseUrl: 'https://d.example.com', includeHidden: false });
  await services.tenants.putDomain({ id: 'theirs', orgId: 'other', source: EXAMPLE_DOCS, docsPath: '', baseUrl: 'https://d.example.com', includeHidden: false });
  // The same data directory the app opens: what the worker would have written.
  const writer = new EmbeddedDocIndex(path.join(services.config.dataDir, 'index'));
  await indexDocs(writer, 'skylark', EXAMPLE_DOCS, { includeHidden: false });
  const api = await serve(createApp(services, [searchRouter]));
  const post = (what: 'search' | 'page', domain: string, body: unknown, key: string | null = org.assistantKey) =>
    fetch(`${api.url}/discovery/v1/${what}/${domain}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key !== null ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
  return { post, org, other };
}

describe('search and page endpoints', () => {
  it('searches the domain with filters and returns content, path and metadata', async () => {
    const { post } = await world();
    const res = await post('search', 'skylark', { query: 'verify webhook signatures', pageSize: 3 });
    assert.equal(res.status, 200);
    assert.ok(res.headers.get('ratelimit-remaining'));
    const hits = (await res.json()) as SearchHit[];
    assert.equal(hits.length, 3);
    assert.equal(hits[0]?.path, '/guides/webhooks');
    assert.equal(hits[0]?.metadata.anchor, 'verify-signatures');
    assert.equal(hits[0]?.metadata.title, 'Webhooks');
    assert.equal(hits[0]?.metadata.version, 'v2');
    assert.match(hits[0]?.content ?? '', /Skylark-Signature/);

    const v1 = (await (await post('search', 'skylark', { query: 'quickstart install', filter: { version: 'v1' } })).json()) as SearchHit[];
    assert.ok(v1.some((h) => h.path === '/v1/quickstart') && v1.every((h) => h.metadata.version !== 'v2'));
    const fr = (await (await post('search', 'skylark', { query: 'tâche', filter: { language: 'fr' } })).json()) as SearchHit[];
    assert.equal(fr[0]?.path, '/fr/quickstart');
    const sso = { query: 'Okta SAML single sign-on' };
    const withoutGroups = (await (await post('search', 'skylark', sso)).json()) as SearchHit[];
    assert.ok(!withoutGroups.some((h) => h.path === '/enterprise/sso'), 'a group-restricted page stays hidden');
    const enterprise = (await (await post('search', 'skylark', { ...sso, filter: { groups: ['enterprise'], tag: 'enterprise' } })).json()) as SearchHit[];
    assert.equal(enterprise[0]?.path, '/enterprise/sso');
    const none = (await (await post('search', 'skylark', { query: 'webhooks', scoreThreshold: 1 })).json()) as SearchHit[];
    assert.equal(none.length, 0);
  });

  it('returns a page by path, 404 for hidden, missing, group-restricted or another organisation\'s', async () => {
    const { post, other } = await world();
    const res = await post('page', 'skylark', { path: '/concepts/retries' });
    assert.equal(res.status, 200);
    const page = (await res.json()) as { path: string; content: string };
    assert.equal(page.path, '/concepts/retries');
    assert.match(page.content, /^When a handler throws/);
    assert.equal((await post('page', 'skylark', { path: '/internal/runbook' })).status, 404);
    assert.equal((await post('page', 'skylark', { path: '/nope' })).status, 404);
    assert.equal((await post('page', 'skylark', { path: '/enterprise/sso' })).status, 404);
    assert.equal((await post('page', 'skylark', { path: '/enterprise/sso', groups: ['enterprise'] })).status, 200);
    assert.equal((await post('page', 'theirs', { path: '/quickstart' })).status, 404, 'another organisation\'s domain');
    assert.equal((await post('page', 'skylark', { path: '/quickstart' }, other.assistantKey)).status, 404);
  });

  it('answers 400 naming the fields, 401 without a key, 403 for an admin key, 404 for unknown domains', async () => {
    const { post, org } = await world();
    const bad = await post('search', 'skylark', { query: '', pageSize: 51, scoreThreshold: 2, filter: { groups: 'x' } });
    assert.equal(bad.status, 400);
    const body = (await bad.json()) as { code: string; details: Array<{ path: string }> };
    assert.equal(body.code, 'invalid_request');
    assert.deepEqual(body.details.map((d) => d.path).sort(), ['filter.groups', 'pageSize', 'query', 'scoreThreshold']);
    const noPath = (await (await post('page', 'skylark', {})).json()) as { details: Array<{ path: string }> };
    assert.deepEqual(noPath.details.map((d) => d.path), ['path']);
    const unauth = await post('search', 'skylark', { query: 'x' }, null);
    assert.equal(unauth.status, 401);
    assert.equal(unauth.headers.get('www-authenticate'), 'Bearer');
    assert.equal((await post('search', 'skylark', { query: 'x' }, 'quire_dsc_not-a-real-key')).status, 401);
    assert.equal((await post('search', 'skylark', { query: 'x' }, org.adminKey)).status, 403);
    assert.equal((await post('search', 'missing', { query: 'x' })).status, 404);
    assert.equal((await post('search', 'theirs', { query: 'x' })).status, 404);
  });

  it('spends the per-organisation hourly limit shared with the assistant', async () => {
    const { post } = await world(2);
    assert.equal((await post('search', 'skylark', { query: 'queues' })).status, 200);
    const second = await post('page', 'skylark', { path: '/quickstart' });
    assert.equal(second.headers.get('ratelimit-remaining'), '0');
    const third = await post('search', 'skylark', { query: 'queues' });
    assert.equal(third.status, 429);
    assert.ok(Number(third.headers.get('retry-after')) >= 1);
  });
});
