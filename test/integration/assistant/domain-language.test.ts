/**
 * A domain written in German: the admin API takes its language, indexing stems its pages as German
 * words, and the search endpoint and the assistant find a page from a question whose words are
 * inflected otherwise than the page's.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { indexWorkflowId, type IndexDomainWorkflow } from '../../../core/contracts/index.js';
import { indexDocs, type WritableDocIndex } from '../../../core/retrieval/index.js';
import { conforms } from '../../support/openapi-conforms.js';
import { bearerCaller, expectError } from '../../support/json-calls.js';
import { tempDir, twoOrgApi } from '../../support/services.js';
import { startWorker, temporalEnv } from '../../support/temporal.js';
import { readV2 } from './clients.js';

/** Pages whose words the questions below meet only once both are stemmed as German. */
const PAGES: Record<string, string> = {
  'sicherung.mdx': '---\ntitle: Datensicherung\n---\n\nDie Sicherung läuft jede Nacht. Jede Einstellung des Zeitplans gilt für alle Rechner des Teams.\n',
  'abrechnung.mdx': '---\ntitle: Abrechnung\n---\n\nDie Rechnung kommt monatlich per E-Mail an die Adresse des Kontos.\n',
  'schluessel.mdx': '---\ntitle: Zugang\n---\n\nEin Zugangstoken erstellen Administratoren unter Konto.\n',
};

describe('a domain in German', function () {
  this.timeout(120_000);

  it('takes its language on the admin API as a supported BCP 47 tag, in canonical case, and clears it with null', async () => {
    // Temporal at an address where nothing listens (not the default port, where a dev server may run).
    const { url, acme } = await twoOrgApi({ withTemporal: false, env: { TEMPORAL_ADDRESS: '127.0.0.1:1' } });
    const call = bearerCaller(() => url);
    const domain = { source: 'https://git.example.com/acme/docs.git', baseUrl: 'https://docs.acme.test' };
    let res = await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'handbuch', language: 'DE_ch' });
    assert.equal(res.status, 201);
    await conforms('/v2/admin/domains', 'post', res.clone());
    assert.equal(((await res.json()) as { language?: string }).language, 'de-CH');
    for (const language of ['ja', 'tlh', 'not a tag', ''])
      await expectError(await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'other', language }), 400, 'invalid_request', 'language');
    // A change re-indexes the domain (below); with Temporal out of reach the answer says it is unavailable and the
    // language stays as it was (pages stemmed in one language, questions cut in another, is no state to leave): a repeat does it.
    res = await call('PATCH', '/v2/admin/domains/handbuch', acme.adminKey, { language: 'fr' });
    await expectError(res, 503, 'unavailable');
    const languageOf = async () => ((await (await call('GET', '/v2/admin/domains/handbuch', acme.adminKey)).json()) as { language?: string }).language;
    assert.equal(await languageOf(), 'de-CH');
    // The same language again, in another case, is no change: nothing to re-index, the rest of the patch is kept.
    res = await call('PATCH', '/v2/admin/domains/handbuch', acme.adminKey, { language: 'DE-ch', supportContact: 'help@acme.test' });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { supportContact?: string }).supportContact, 'help@acme.test');
    await expectError(await call('PATCH', '/v2/admin/domains/handbuch', acme.adminKey, { language: null }), 503, 'unavailable');
    assert.equal(await languageOf(), 'de-CH');
  });

  it('a change of its language re-indexes the domain, so its pages are stemmed in the new language', async () => {
    const taskQueue = `domain-language-${randomUUID()}`;
    const { services, url, acme } = await twoOrgApi({ taskQueue });
    await startWorker(services, { taskQueue });
    const call = bearerCaller(() => url);
    const docs = await tempDir();
    for (const [file, text] of Object.entries(PAGES)) await fs.writeFile(path.join(docs, file), text);
    const id = `handbuch-${randomUUID().slice(0, 8)}`;
    await services.tenants.putDomain({ id, orgId: 'acme', source: docs, docsPath: '', baseUrl: 'https://docs.acme.test/', includeHidden: false });
    const { client } = await temporalEnv();
    const finished = async () => (await client.workflow.getHandle<IndexDomainWorkflow>(indexWorkflowId(id)).result()).pages;
    assert.equal((await call('POST', `/v2/admin/domains/${id}/index`, acme.adminKey)).status, 202);
    assert.equal(await finished(), 3);
    const search = async (language?: string) => (await services.docIndex.search(id, { query: 'Sicherungen und Einstellungen', pageSize: 3, ...(language ? { language } : {}) })).map((hit) => hit.path);
    assert.deepEqual(await search(), [], 'stemmed as English, the inflected question meets no page');
    const firstRun = (await client.workflow.getHandle(indexWorkflowId(id)).describe()).runId;

    const res = await call('PATCH', `/v2/admin/domains/${id}`, acme.adminKey, { language: 'de' });
    assert.equal(res.status, 200);
    await conforms('/v2/admin/domains/{domainId}', 'patch', res.clone());
    assert.notEqual((await client.workflow.getHandle(indexWorkflowId(id)).describe()).runId, firstRun, 'the PATCH started a run');
    assert.equal(await finished(), 3);
    assert.equal((await search('de'))[0], '/sicherung');
  });

  it('finds the page for an inflected question on the search endpoint and in the assistant; the same pages as English do not', async () => {
    const { services, url, acme } = await twoOrgApi({ withTemporal: false });
    const docs = await tempDir();
    for (const [file, text] of Object.entries(PAGES)) await fs.writeFile(path.join(docs, file), text);
    const base = { orgId: 'acme', source: docs, docsPath: '', baseUrl: 'https://docs.acme.test/', includeHidden: false };
    await services.tenants.putDomain({ ...base, id: 'handbuch', language: 'de' });
    await services.tenants.putDomain({ ...base, id: 'english' });
    // As the indexing activity does: the record's language goes to indexing.
    const index = services.docIndex as WritableDocIndex;
    await indexDocs(index, 'handbuch', docs, { includeHidden: false, language: 'de' });
    await indexDocs(index, 'english', docs, { includeHidden: false });

    const search = async (domain: string, query: string) => {
      const res = await fetch(`${url}/discovery/v1/search/${domain}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${acme.assistantKey}` },
        body: JSON.stringify({ query }),
      });
      assert.equal(res.status, 200);
      return ((await res.json()) as Array<{ path: string }>).map((hit) => hit.path);
    };
    // `Sicherungen` and `Einstellungen` are not the page's words; German stems make them `sicher` and `einstell`, as its.
    assert.equal((await search('handbuch', 'Sicherungen und Einstellungen'))[0], '/sicherung');
    assert.deepEqual(await search('english', 'Sicherungen und Einstellungen'), []);

    const answer = await readV2('ai5', { url: `${url}/discovery/v2/assistant/handbuch/message`, key: acme.assistantKey, body: { fp: 'a' }, text: 'Wann laufen die Sicherungen?' });
    assert.equal(answer.sources[0]?.url, 'https://docs.acme.test/sicherung');
  });
});
