/**
 * A domain written in German: the admin API takes its language, indexing stems its pages as German
 * words, and the search endpoint and the assistant find a page from a question whose words are
 * inflected otherwise than the page's.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { indexDocs, type WritableDocIndex } from '../../../core/retrieval/index.js';
import { conforms } from '../../support/openapi-conforms.js';
import { bearerCaller, expectError } from '../../support/json-calls.js';
import { tempDir, twoOrgApi } from '../../support/services.js';
import { readV2 } from './clients.js';

/** Pages whose words the questions below meet only once both are stemmed as German. */
const PAGES: Record<string, string> = {
  'sicherung.mdx': '---\ntitle: Datensicherung\n---\n\nDie Sicherung läuft jede Nacht. Jede Einstellung des Zeitplans gilt für alle Rechner des Teams.\n',
  'abrechnung.mdx': '---\ntitle: Abrechnung\n---\n\nDie Rechnung kommt monatlich per E-Mail an die Adresse des Kontos.\n',
  'schluessel.mdx': '---\ntitle: Zugang\n---\n\nEin Zugangstoken erstellen Administratoren unter Konto.\n',
};

describe('a domain in German', function () {
  this.timeout(60_000);

  it('takes its language on the admin API as a supported BCP 47 tag, in canonical case, and clears it with null', async () => {
    const { url, acme } = await twoOrgApi({ withTemporal: false });
    const call = bearerCaller(() => url);
    const domain = { source: 'https://git.example.com/acme/docs.git', baseUrl: 'https://docs.acme.test' };
    let res = await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'handbuch', language: 'DE_ch' });
    assert.equal(res.status, 201);
    await conforms('/v2/admin/domains', 'post', res.clone());
    assert.equal(((await res.json()) as { language?: string }).language, 'de-CH');
    for (const language of ['ja', 'tlh', 'not a tag', ''])
      await expectError(await call('POST', '/v2/admin/domains', acme.adminKey, { ...domain, id: 'other', language }), 400, 'invalid_request', 'language');
    res = await call('PATCH', '/v2/admin/domains/handbuch', acme.adminKey, { language: 'fr' });
    assert.equal(((await res.json()) as { language?: string }).language, 'fr');
    res = await call('PATCH', '/v2/admin/domains/handbuch', acme.adminKey, { language: null });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { language?: string }).language, undefined);
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
