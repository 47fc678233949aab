import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { EmbeddedDocIndex } from '../../../core/retrieval/embedded-store.js';
import { QueryEmbedder } from '../../../core/retrieval/query-embedder.js';
import { indexDocs } from '../../../core/retrieval/index-docs.js';
import { tokenise } from '../../../core/retrieval/tokenise.js';
import { startFakeModel } from '../../fakes/chat-completions-server.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { tempDir, testConfig, chunkEmbeddingOf } from '../../support/services.js';

async function docsFolder(files: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), text);
  }
  return dir;
}

const SITE = {
  'index.mdx': '---\ntitle: Welcome\n---\n\nAcme moves crates.\n\n## Pricing\n\nFree for small teams.\n',
  'guides/retries.mdx': '---\ntitle: Retries\n---\n\n## Backoff\n\nFailed deliveries retry with exponential backoff.\n\n## Dead letters\n\nAfter five attempts a parcel goes to the dead-letter queue.\n',
  'guides/config.md': '---\ntitle: Configuration\n---\n\nSet `retrievalPageSize` in acme.toml.\n',
  'v1/retries.md': '---\ntitle: Retries (v1)\nversion: v1\n---\n\nIn v1 retries use a fixed delay.\n',
  'fr/retries.md': '---\ntitle: Relances\nlanguage: fr\n---\n\nLes relances utilisent un délai exponentiel backoff.\n',
  'admin.md': '---\ntitle: Admin backoff console\ngroups: [staff]\ntag: internal\n---\n\nStaff tune backoff here.\n',
};

describe('embedded store', () => {
  it('stems a domain in its language: an inflected German query finds the page, English queries are cut as before', async () => {
    const site = {
      'sicherung.mdx': '---\ntitle: Sicherung\n---\n\nDie Einstellung des Zeitplans legt fest, wann der Rechner gesichert wird.\n',
      'abrechnung.mdx': '---\ntitle: Abrechnung\n---\n\nDie Rechnung kommt monatlich per E-Mail.\n',
      'en/backup.mdx': '---\ntitle: Backups\nlanguage: en\n---\n\nConfiguring scheduled backups of indexed files.\n',
    };
    const docs = await docsFolder(site);
    const german = new EmbeddedDocIndex(await tempDir());
    await indexDocs(german, 'de', docs, { includeHidden: false, language: 'de-DE' });
    const [hit] = await german.search('de', { query: 'alle Sicherungen', pageSize: 3, language: 'de-DE' });
    assert.equal(hit?.path, '/sicherung');
    // A page that states its own language keeps it: English words meet English stems.
    const [english] = await german.search('de', { query: 'configured backup', pageSize: 3, language: 'de-DE', filter: { language: 'en' } });
    assert.equal(english?.path, '/en/backup');
    // The same site as a domain of no language: English stemming, which leaves the plural apart.
    const plain = new EmbeddedDocIndex(await tempDir());
    await indexDocs(plain, 'plain', docs, { includeHidden: false });
    assert.deepEqual(await plain.search('plain', { query: 'alle Sicherungen', pageSize: 3 }), []);
    // A language of its own changes every page's hash, so setting one re-indexes the domain.
    const hashes = await german.pageHashes('de');
    const plainHashes = await plain.pageHashes('plain');
    for (const [page, hash] of hashes) assert.notEqual(plainHashes.get(page), hash, page);
  });

  it('ranks titles and headings above body text and returns breadcrumbs and anchors', async () => {
    const ix = new EmbeddedDocIndex(await tempDir());
    await indexDocs(ix, 'acme', await docsFolder(SITE), { includeHidden: false });
    const [hit] = await ix.search('acme', { query: 'dead letters', pageSize: 3 });
    assert.equal(hit?.path, '/guides/retries');
    assert.equal(hit?.metadata.anchor, 'dead-letters');
    assert.deepEqual(hit?.metadata.breadcrumb, ['Retries', 'Dead letters']);
    assert.ok(hit && hit.metadata.score > 0 && hit.metadata.score <= 1);
    const [byId] = await ix.search('acme', { query: 'retrieval page size', pageSize: 1 });
    assert.equal(byId?.path, '/guides/config');
  });

  it('a query that is a page\'s title puts that page first, the shallower of two of one title first; never a page the reader may not see', async () => {
    const segmentWords = 'A segment groups users. Segments, segment rules, segment sizes and segment exports. '.repeat(4);
    const ix = new EmbeddedDocIndex(await tempDir());
    await indexDocs(
      ix,
      'acme',
      await docsFolder({
        'concepts/segments.mdx': `---\ntitle: Segments\n---\n\n${segmentWords}\n`,
        'api/segment-export.mdx': `---\ntitle: Export a segment\n---\n\n${segmentWords}\n`,
        'integrations/segment.mdx': '---\ntitle: Segment\n---\n\nSend events to the Segment CDP.\n',
        'legacy/v2/quickstart.mdx': '---\ntitle: Quickstart\n---\n\nThe quickstart of v2: quickstart steps, a quickstart project and quickstart keys.\n',
        'quickstart.mdx': '---\ntitle: Quickstart\n---\n\nInstall and run.\n',
        'staff/webhooks.mdx': '---\ntitle: Webhooks\ngroups: [staff]\n---\n\nInternal webhook notes.\n',
        'guides/webhook-retries.mdx': '---\ntitle: Webhook retries\n---\n\nWebhooks retry. Webhooks back off. Webhooks give up.\n',
      }),
      { includeHidden: false },
    );
    const first = async (query: string, groups?: string[]) => (await ix.search('acme', { query, pageSize: 5, ...(groups ? { filter: { groups } } : {}) }))[0]?.path;
    assert.equal(await first('Segment'), '/integrations/segment', 'its plural is another title');
    assert.equal(await first('segment?'), '/integrations/segment');
    assert.equal(await first('Segments'), '/concepts/segments');
    assert.equal(await first('quickstart'), '/quickstart');
    assert.equal(await first('Webhooks'), '/guides/webhook-retries', 'the staff page stays hidden from a reader outside the group');
    assert.equal(await first('Webhooks', ['staff']), '/staff/webhooks');
  });

  it('finds a Chinese or Japanese word inside a sentence written without spaces', async () => {
    const ix = new EmbeddedDocIndex(await tempDir());
    const site = {
      ...SITE,
      'zh/database.md': '---\ntitle: 数据库\nlanguage: zh\n---\n\n数据库连接配置需要设置主机名和端口。\n',
      'ja/database.md': '---\ntitle: データベース\nlanguage: ja\n---\n\nデータベースのホスト名とポートを設定します。\n',
    };
    await indexDocs(ix, 'acme', await docsFolder(site), { includeHidden: false });
    for (const [query, page] of [['主机名', '/zh/database'], ['端口', '/zh/database'], ['ホスト名', '/ja/database'], ['データベース', '/ja/database']]) {
      const [hit] = await ix.search('acme', { query: query!, pageSize: 3 });
      assert.equal(hit?.path, page, query);
    }
  });

  it('filters on version, language, tag and groups, and boosts the current page', async () => {
    const ix = new EmbeddedDocIndex(await tempDir());
    const portuguese = { 'pt/retries.md': '---\ntitle: Novas tentativas\nlanguage: pt-BR\n---\n\nNovas tentativas usam backoff exponencial.\n' };
    await indexDocs(ix, 'acme', await docsFolder({ ...SITE, ...portuguese }), { includeHidden: false });
    const paths = async (filter: object, extra: object = {}) =>
      (await ix.search('acme', { query: 'backoff retries', pageSize: 10, filter, ...extra })).map((h) => h.path);
    assert.ok(!(await paths({})).includes('/admin'), 'group-restricted page hidden without groups');
    assert.ok((await paths({ groups: ['staff'] })).includes('/admin'));
    assert.deepEqual(await paths({ tag: 'internal', groups: ['staff'] }), ['/admin']);
    assert.ok(!(await paths({ version: 'v2' })).includes('/v1/retries'));
    assert.ok((await paths({ version: 'v1' })).includes('/v1/retries'));
    assert.ok(!(await paths({ language: 'en' })).includes('/fr/retries'));
    // Language tags are case-insensitive: a client's pt-br, PT-BR or pt_BR finds the pages written pt-BR.
    for (const language of ['pt-BR', 'pt-br', 'PT-BR', 'pt_BR']) assert.ok((await paths({ language })).includes('/pt/retries'), language);
    assert.ok(!(await paths({ language: 'fr' })).includes('/pt/retries'));
    const frScore = async (extra: object) =>
      (await ix.search('acme', { query: 'backoff retries', pageSize: 10, ...extra })).find((h) => h.path === '/fr/retries')?.metadata.score ?? 0;
    assert.ok((await frScore({ currentPath: '/fr/retries' })) > (await frScore({})));
    const plain = await paths({});
    const strict = await ix.search('acme', { query: 'backoff retries', pageSize: 10, scoreThreshold: 0.99 });
    assert.ok(strict.length < plain.length);
  });

  it('a vocabulary holds only the words of the pages the reader\'s groups may see, and follows a re-index', async () => {
    const site = {
      'index.mdx': '---\ntitle: Welcome\n---\n\nAcme moves crates. The console lists every crate.\n',
      'staff/deploy.mdx': '---\ntitle: Deploys\ngroups: [staff]\n---\n\nStaff deploy with Zeppelin. The console lists staff crates.\n',
      'partners/sso.mdx': '---\ntitle: Partner sign-in\ngroups: [partners, staff]\n---\n\nPartners sign in through Keycloak.\n',
    };
    const docs = await docsFolder(site);
    const ix = new EmbeddedDocIndex(await tempDir());
    await indexDocs(ix, 'acme', docs, { includeHidden: false });
    const term = (word: string) => tokenise(word)[0]!;
    const seen = async (groups?: string[]) => {
      const vocabulary = await ix.vocabulary('acme', groups);
      return {
        zeppelin: vocabulary.documentFrequency(term('Zeppelin')),
        typo: vocabulary.nearest(term('Zepelin')),
        keycloak: vocabulary.documentFrequency(term('Keycloak')),
        console: vocabulary.documentFrequency(term('console')),
      };
    };
    const publicOnly = { zeppelin: 0, typo: undefined, keycloak: 0, console: 1 };
    assert.deepEqual(await seen(), publicOnly);
    assert.deepEqual(await seen([]), publicOnly);
    assert.deepEqual(await seen(['others']), publicOnly);
    assert.deepEqual(await seen(['partners']), { ...publicOnly, keycloak: 1 });
    assert.deepEqual(await seen(['others', 'staff']), { zeppelin: 1, typo: term('Zeppelin'), keycloak: 1, console: 2 });
    // The deploy page made public: the next look-up holds its words for every reader.
    await fs.writeFile(path.join(docs, 'staff/deploy.mdx'), site['staff/deploy.mdx'].replace('groups: [staff]\n', ''));
    await indexDocs(ix, 'acme', docs, { includeHidden: false });
    assert.deepEqual(await seen(), { zeppelin: 1, typo: term('Zeppelin'), keycloak: 0, console: 2 });
  });

  it('searches for a reader outside a page’s groups as a domain without the page: same pages, order, scores and typo corrections', async () => {
    const open = {
      ...SITE,
      'guides/graph.mdx': '---\ntitle: Delivery graph\n---\n\nEach vertex is a depot; the kestral route joins them.\n',
    };
    const restricted = {
      'staff/vortex.mdx': `---\ntitle: Vortex queue\ngroups: [staff]\n---\n\n${'Staff retry parcels from the vortex queue with kestrel backoff. '.repeat(5)}\n`,
      'staff/kestrels.mdx': '---\ntitle: Kestrels\ngroups: [staff]\n---\n\nThe kestrel route, the kestrel depot, kestrel backoff.\n',
    };
    const { 'admin.md': _admin, ...publicOnly } = open;
    const withHidden = new EmbeddedDocIndex(await tempDir());
    await indexDocs(withHidden, 'acme', await docsFolder({ ...open, ...restricted }), { includeHidden: false });
    const without = new EmbeddedDocIndex(await tempDir());
    await indexDocs(without, 'acme', await docsFolder(publicOnly), { includeHidden: false });
    const queries = ['backoff', 'retries backoff', 'dead letters', 'vortex', 'vertix', 'kestril route', 'kestrel', 'Retries', 'Vortex queue', 'parcel queue'];
    for (const query of queries) {
      const found = await withHidden.search('acme', { query, pageSize: 10, chunksPerPage: 2 });
      assert.deepEqual(found, await without.search('acme', { query, pageSize: 10, chunksPerPage: 2 }), query);
    }
    // A word only staff pages hold is corrected to a public one, as a word on no page is.
    assert.equal((await withHidden.search('acme', { query: 'vortex', pageSize: 1 }))[0]?.path, '/guides/graph');
    assert.equal((await withHidden.search('acme', { query: 'kestril', pageSize: 1 }))[0]?.path, '/guides/graph');
    // Staff see their pages, found by their own words.
    assert.equal((await withHidden.search('acme', { query: 'vortex', pageSize: 1, filter: { groups: ['staff'] } }))[0]?.path, '/staff/vortex');
    assert.equal((await withHidden.search('acme', { query: 'kestril', pageSize: 1, filter: { groups: ['staff'] } }))[0]?.path, '/staff/kestrels');
  });

  it('serves pages by path with group checks, and survives a reopen', async () => {
    const dir = await tempDir();
    const docs = await docsFolder(SITE);
    await indexDocs(new EmbeddedDocIndex(dir), 'acme', docs, { includeHidden: false });
    const reopened = new EmbeddedDocIndex(dir);
    assert.equal((await reopened.getPage('acme', '/guides/config'))?.title, 'Configuration');
    assert.equal((await reopened.getPage('acme', 'guides/config.md'))?.path, '/guides/config');
    assert.equal((await reopened.getPage('acme', '/'))?.title, 'Welcome');
    assert.equal(await reopened.getPage('acme', '/admin'), undefined);
    assert.match((await reopened.getPage('acme', '/admin', ['staff']))?.content ?? '', /Staff tune/);
    assert.equal(await reopened.getPage('acme', '/nope'), undefined);
    assert.deepEqual(await reopened.search('other-domain', { query: 'backoff', pageSize: 5 }), []);
  });

  it('searches that arrive together while the files are looked at share one look and one load', async () => {
    const dir = await tempDir();
    await indexDocs(new EmbeddedDocIndex(dir), 'acme', await docsFolder(SITE), { includeHidden: false });
    const reader = new EmbeddedDocIndex(dir);
    const base = path.join(dir, 'acme.json');
    const realReadFile = fs.readFile;
    let baseReads = 0;
    fs.readFile = ((file: Parameters<typeof fs.readFile>[0], ...rest: unknown[]) => {
      if (file === base) baseReads++;
      return (realReadFile as (...args: unknown[]) => unknown)(file, ...rest);
    }) as typeof fs.readFile;
    try {
      const results = await Promise.all(Array.from({ length: 10 }, () => reader.search('acme', { query: 'dead letters', pageSize: 1 })));
      assert.deepEqual(results.map((hits) => hits[0]?.path), Array.from({ length: 10 }, () => '/guides/retries'));
    } finally {
      fs.readFile = realReadFile;
    }
    assert.equal(baseReads, 1);
  });

  it('re-indexes incrementally: unchanged pages skipped, edits replaced, deletions removed; readers see it', async () => {
    const dir = await tempDir();
    const docs = await docsFolder(SITE);
    const writer = new EmbeddedDocIndex(dir);
    const reader = new EmbeddedDocIndex(dir);
    const first = await indexDocs(writer, 'acme', docs, { includeHidden: false });
    assert.deepEqual([first.added, first.updated, first.removed, first.unchanged], [6, 0, 0, 0]);
    assert.equal((await reader.search('acme', { query: 'crates', pageSize: 1 }))[0]?.path, '/');

    await fs.writeFile(path.join(docs, 'index.mdx'), '---\ntitle: Welcome\n---\n\nAcme ships zeppelins.\n');
    await fs.rm(path.join(docs, 'guides/config.md'));
    await fs.writeFile(path.join(docs, 'broken.mdx'), '<Note>\n');
    const second = await indexDocs(writer, 'acme', docs, { includeHidden: false });
    assert.deepEqual([second.added, second.updated, second.removed, second.unchanged], [0, 1, 1, 4], JSON.stringify(second));
    assert.deepEqual(second.broken.map((b) => b.path), ['/broken']);
    assert.match(second.broken[0]!.reason, /MDX/);
    // A binary file named .mdx and a page in Latin-1 are no pages, and say why; nothing of theirs is indexed.
    await fs.writeFile(path.join(docs, 'logo.mdx'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x1a, 0x0a]));
    await fs.writeFile(path.join(docs, 'latin.md'), Buffer.from('# Caf\xe9\n\nD\xe9marrage\n', 'latin1'));
    // A file whose name is not UTF-8 cannot be opened by the name it is listed under: said without the worker's path.
    await fs.writeFile(Buffer.concat([Buffer.from(`${docs}/caf`), Buffer.from([0xe9]), Buffer.from('.md')]), '# Cafe\n');
    const third = await indexDocs(writer, 'acme', docs, { includeHidden: false });
    const unreadable = third.broken.filter((b) => b.path.startsWith('/caf'));
    assert.deepEqual(unreadable.map((b) => b.reason), ['the file could not be read (ENOENT)']);
    assert.deepEqual(third.broken.filter((b) => !b.path.startsWith('/caf')).map((b) => [b.path, b.reason]).sort(), [
      ['/broken', second.broken[0]!.reason],
      ['/latin', 'not UTF-8 text: save the page as UTF-8'],
      ['/logo', 'not a text file (it holds NUL bytes)'],
    ]);
    assert.equal(await reader.getPage('acme', '/logo'), undefined);
    // Another instance (the API process) sees the worker's writes without a restart.
    assert.deepEqual(await reader.search('acme', { query: 'crates', pageSize: 5 }), []);
    assert.equal((await reader.search('acme', { query: 'zeppelins', pageSize: 1 }))[0]?.path, '/');
    assert.equal(await reader.getPage('acme', '/guides/config'), undefined);
  });

  it('re-reads every page of an index whose words an earlier tokeniser cut, so its stored terms meet the queries of this one', async () => {
    // Written by the release before accents were folded: its page holds `clé`, which a query now reads as `cle`.
    const fixture = path.join(__dirname, '../../fixtures/index-before-folding');
    const dir = await tempDir();
    await fs.cp(path.join(fixture, 'index'), dir, { recursive: true });
    const ix = new EmbeddedDocIndex(dir);
    const summary = await indexDocs(ix, 'acme', path.join(fixture, 'docs'), { includeHidden: false });
    assert.deepEqual([summary.updated, summary.unchanged], [1, 0]);
    assert.equal((await ix.search('acme', { query: 'clé révoquée', pageSize: 1 }))[0]?.path, '/fr/acces');
  });

  it('writes what a re-index changed to the journal, not the whole index again', async () => {
    const dir = await tempDir();
    const docs = await docsFolder(SITE);
    const writer = new EmbeddedDocIndex(dir);
    await indexDocs(writer, 'acme', docs, { includeHidden: false, batchSize: 2 });
    const journal = path.join(dir, 'acme.changes.jsonl');
    const before = await fs.readFile(journal, 'utf8');
    await fs.writeFile(path.join(docs, 'guides/config.md'), '---\ntitle: Configuration\n---\n\nSet `retrievalPageSize` in acme.yaml.\n');
    const again = await indexDocs(writer, 'acme', docs, { includeHidden: false });
    assert.deepEqual([again.updated, again.unchanged], [1, 5]);
    const after = await fs.readFile(journal, 'utf8');
    assert.ok(after.startsWith(before), 'what was written stays as it was');
    const appended = after.slice(before.length);
    assert.equal(appended.split('\n').filter(Boolean).length, 1);
    assert.ok(appended.length * 3 < before.length, `appended ${appended.length} bytes to ${before.length}`);
    const reader = new EmbeddedDocIndex(dir);
    assert.equal((await reader.search('acme', { query: 'acme.yaml', pageSize: 1 }))[0]?.path, '/guides/config');
    assert.equal((await reader.pageHashes('acme')).size, 6);
  });

  it('ignores a torn journal line left by a crash, and the next writer cuts it off', async () => {
    const dir = await tempDir();
    const docs = await docsFolder(SITE);
    await indexDocs(new EmbeddedDocIndex(dir), 'acme', docs, { includeHidden: false, batchSize: 2 });
    const journal = path.join(dir, 'acme.changes.jsonl');
    await fs.appendFile(journal, '{"removals":["/"],"pages":[');
    const reader = new EmbeddedDocIndex(dir);
    assert.equal((await reader.pageHashes('acme')).size, 6);
    await fs.writeFile(path.join(docs, 'index.mdx'), '---\ntitle: Welcome\n---\n\nAcme ships zeppelins.\n');
    await indexDocs(new EmbeddedDocIndex(dir), 'acme', docs, { includeHidden: false });
    const lines = (await fs.readFile(journal, 'utf8')).split('\n');
    assert.equal(lines.pop(), '', 'the journal ends with a whole line');
    for (const line of lines) JSON.parse(line);
    assert.equal((await new EmbeddedDocIndex(dir).search('acme', { query: 'zeppelins', pageSize: 1 }))[0]?.path, '/');
  });

  it('folds a long journal into the base file, and readers see the same index', async () => {
    const dir = await tempDir();
    const many = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`p${i}.md`, `# Page ${i}\n\nWord${i} text.\n`]));
    await indexDocs(new EmbeddedDocIndex(dir), 'acme', await docsFolder(many), { includeHidden: false, batchSize: 1 });
    const lines = (await fs.readFile(path.join(dir, 'acme.changes.jsonl'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
    assert.ok(lines.length < 64, `${lines.length} journal entries`);
    const reader = new EmbeddedDocIndex(dir);
    assert.equal((await reader.pageHashes('acme')).size, 70);
    assert.equal((await reader.search('acme', { query: 'word69', pageSize: 1 }))[0]?.path, '/p69');
  });

  it('fuses dense vectors from an OpenAI-compatible embeddings endpoint with the keyword ranking', async () => {
    // The fake model server stands in for an OpenAI-compatible embeddings provider.
    const model = await startFakeModel([], { embeddingDims: 32 });
    onSuiteEnd(model.close);
    const config = await testConfig({ QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test', QUIRE_MODEL: 'chat', QUIRE_EMBEDDING_MODEL: 'embed' });
    const embedding = await chunkEmbeddingOf(config);
    const ix = new EmbeddedDocIndex(await tempDir(), new QueryEmbedder(embedding?.embedder, 5_000));
    await indexDocs(ix, 'acme', await docsFolder(SITE), { includeHidden: false, embedding });
    const embedCalls = model.requests.filter((r) => r.path.endsWith('/embeddings'));
    assert.ok(embedCalls.length >= 1);
    assert.equal(embedCalls[0]?.body.model, 'embed');
    const hits = await ix.search('acme', { query: 'dead letters', pageSize: 3 });
    assert.equal(hits[0]?.path, '/guides/retries');
    assert.ok(hits[0]!.metadata.score <= 1 && hits[0]!.metadata.score > 0.5);
    assert.equal(hits[0]!.metadata.retrieval, 'hybrid');
    assert.equal(model.requests.filter((r) => r.path.endsWith('/embeddings')).length, embedCalls.length + 1, 'the query is embedded too');
  });
});
