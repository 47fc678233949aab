import assert from 'node:assert/strict';
import path from 'node:path';
import { createApp } from '../../../api/app.js';
import { assistantRouter } from '../../../api/assistant/index.js';
import { searchRouter } from '../../../api/search/index.js';
import { indexDocs } from '../../../core/retrieval/index-docs.js';
import { startFakeQdrant } from '../../fakes/qdrant-server.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

const EXAMPLE_DOCS = path.resolve(__dirname, '..', '..', '..', 'infra', 'example-docs');

/**
 * The API over Qdrant (the fake, standing in for it: it answers as Qdrant's REST API does, 404
 * with its own words for a collection that does not exist) after an operator deleted the domain's
 * collection by hand: Qdrant refuses every search with a 4xx.
 */
describe('Qdrant refusing a request', () => {
  it('answers 502 search_engine_refused (not a 500) on search and the assistant, and keeps Qdrant’s words out of the reply', async () => {
    const qdrant = await startFakeQdrant();
    onSuiteEnd(qdrant.close);
    const services = await testServices({ withTemporal: false, env: { QDRANT_URL: qdrant.url } });
    const org = await seedOrg(services);
    await services.tenants.putDomain({ id: 'docs', orgId: 'acme', source: EXAMPLE_DOCS, docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false });
    await indexDocs(services.docIndex, 'docs', EXAMPLE_DOCS, { includeHidden: false });
    const api = await serve(createApp(services, [searchRouter, assistantRouter]));
    const post = (path: string, body: unknown) =>
      fetch(`${api.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${org.assistantKey}` }, body: JSON.stringify(body) });

    const found = await post('/discovery/v1/search/docs', { query: 'verify webhook signatures' });
    assert.equal(found.status, 200, 'the collection answers before it is deleted');
    assert.ok(((await found.json()) as unknown[]).length > 0);

    qdrant.collections.clear();
    const search = await post('/discovery/v1/search/docs', { query: 'verify webhook signatures' });
    assert.equal(search.status, 502);
    const body = (await search.json()) as { code: string; error: string };
    assert.equal(body.code, 'search_engine_refused');
    assert.doesNotMatch(body.error, /Collection|doesn't exist/);

    const asked = await post('/discovery/v2/assistant/docs/message', { fp: 'reader', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'How do I verify webhook signatures?' }] }] });
    assert.equal(asked.status, 502);
    assert.equal(((await asked.json()) as { code: string }).code, 'search_engine_refused');
  });
});
