import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { EmbeddedDocIndex } from '../../../core/retrieval/embedded-store.js';
import { indexDocs } from '../../../core/retrieval/index-docs.js';
import { matchesFilter } from '../../../core/retrieval/filter.js';
import { chunkTerms, KeywordIndex } from '../../../core/retrieval/keyword-index.js';
import { buildKeywordIndexes, hiddenFrom, queryTermsFor, rankPages } from '../../../core/retrieval/page-ranking.js';
import { TypoCorrector, withinOneEdit } from '../../../core/retrieval/query-terms.js';
import type { StoredChunk } from '../../../core/retrieval/snapshot-file.js';
import { tokenise } from '../../../core/retrieval/tokenise.js';
import { QdrantDocIndex } from '../../../core/retrieval/qdrant-store.js';
import type { DocIndex } from '../../../core/retrieval/types.js';
import { startFakeQdrant } from '../../fakes/qdrant-server.js';
import { tempDir } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

/** One page that talks about backoff in every section, and three that mention it once. */
const SITE: Record<string, string> = {
  'guides/retries.mdx':
    '---\ntitle: Retries\n---\n\nFailed deliveries retry with backoff.\n\n## Backoff\n\nExponential backoff doubles the delay.\n\n' +
    '## Backoff jitter\n\nJitter spreads backoff delays.\n\n## Backoff limits\n\nThe backoff stops at ten minutes.\n\n## Dead letters\n\nThen a parcel waits in the dead-letter queue.\n',
  'concepts/delivery.mdx': '---\ntitle: Delivery\n---\n\nEach parcel is delivered once; a failure is retried with backoff.\n',
  'reference/limits.mdx': '---\ntitle: Limits\n---\n\nA crate holds forty parcels. Backoff applies to rate-limited calls.\n',
  'guides/webhooks.mdx': '---\ntitle: Webhooks\n---\n\nWebhook calls that fail use backoff too.\n',
  'concepts/environments.mdx': '---\ntitle: Environments\n---\n\nClone an environment to copy its crates.\n',
  'guides/relay.md': '---\ntitle: Relay\n---\n\nSet `relay.cacheTTL` to keep flags in memory for longer.\n',
  'reference/caching.md': '---\ntitle: Caching\n---\n\nThe SDK keeps a cache of flags; its TTL is five minutes.\n',
};

async function docsFolder(): Promise<string> {
  const dir = await tempDir();
  for (const [file, text] of Object.entries(SITE)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), text);
  }
  return dir;
}

async function embeddedStore(): Promise<DocIndex> {
  const ix = new EmbeddedDocIndex(await tempDir());
  await indexDocs(ix, 'acme', await docsFolder(), { includeHidden: false });
  return ix;
}

// No Qdrant server can run here: the fake speaks Qdrant's REST protocol, including query/groups.
async function qdrantStore(): Promise<DocIndex> {
  const qdrant = await startFakeQdrant();
  onSuiteEnd(qdrant.close);
  const ix = new QdrantDocIndex({ url: qdrant.url, apiKey: undefined, collection: 'c' });
  await indexDocs(ix, 'acme', await docsFolder(), { includeHidden: false });
  return ix;
}

for (const [store, open] of [['embedded store', embeddedStore], ['Qdrant store', qdrantStore]] as const) {
  describe(`page-level ranking (${store})`, () => {
    it('gives one result per page: a page with many matching sections takes one place', async () => {
      const ix = await open();
      const hits = await ix.search('acme', { query: 'backoff', pageSize: 3 });
      const paths = hits.map((h) => h.path);
      assert.equal(paths[0], '/guides/retries');
      assert.equal(paths.length, 3);
      assert.equal(new Set(paths).size, 3, `a page repeated: ${paths.join(' ')}`);
      assert.ok(hits.every((h) => h.metadata.score > 0 && h.metadata.score <= 1));
    });

    it('shows a page by its best section, and gives its other matching sections side by side when asked', async () => {
      const ix = await open();
      const [best] = await ix.search('acme', { query: 'backoff jitter', pageSize: 1 });
      assert.equal(best?.metadata.anchor, 'backoff-jitter');
      const hits = await ix.search('acme', { query: 'backoff', pageSize: 2, chunksPerPage: 3 });
      const paths = hits.map((h) => h.path);
      assert.deepEqual(paths.slice(0, 3), ['/guides/retries', '/guides/retries', '/guides/retries']);
      assert.equal(new Set(paths).size, 2, 'pageSize counts pages');
      assert.equal(new Set(hits.slice(0, 3).map((h) => h.metadata.anchor)).size, 3, 'three different sections');
      assert.ok(paths.length <= 4 && paths.slice(3).every((p) => p !== '/guides/retries'));
    });
  });
}

describe('keyword ranking features (embedded store)', () => {
  it('finds a page through a typo one edit away from an indexed word', async () => {
    const ix = await embeddedStore();
    assert.equal((await ix.search('acme', { query: 'enviroment', pageSize: 3 }))[0]?.path, '/concepts/environments');
    assert.equal((await ix.search('acme', { query: 'deliverd parcle', pageSize: 3 }))[0]?.path, '/concepts/delivery');
    // A word far from every indexed one still matches nothing.
    assert.deepEqual(await ix.search('acme', { query: 'zyxwvut', pageSize: 3 }), []);
  });

  it('finds a dotted config key from its last segment typed alone', async () => {
    const ix = await embeddedStore();
    assert.equal((await ix.search('acme', { query: 'cacheTTL', pageSize: 3 }))[0]?.path, '/guides/relay');
    assert.deepEqual((await ix.search('acme', { query: 'cache ttl', pageSize: 3 })).map((h) => h.path).sort(), ['/guides/relay', '/reference/caching']);
  });

  it('counts one edit: insertion, deletion, substitution or a swap of neighbours', () => {
    assert.ok(withinOneEdit('enviroment', 'environment'));
    assert.ok(withinOneEdit('environment', 'enviroment'));
    assert.ok(withinOneEdit('rotaion', 'rotation'));
    assert.ok(withinOneEdit('pagnation', 'pagination'));
    assert.ok(withinOneEdit('recieve', 'receive'));
    assert.ok(withinOneEdit('webhok', 'webhoo'));
    assert.ok(!withinOneEdit('recieve', 'receiver'));
    assert.ok(!withinOneEdit('flags', 'flat'));
    assert.ok(!withinOneEdit('abcd', 'badc'));
  });
});

describe('keyword index of pages built from chunk postings', () => {
  it('scores a group exactly like one document holding its members, less what they repeat, in or out of order', () => {
    const chunks: Array<Array<[string, number]>> = [
      [['retry', 3], ['backoff', 1]],
      [['queue', 2]],
      [['retry', 3], ['jitter', 2]],
      [['queue', 1], ['backoff', 4]],
    ];
    // Chunks 0 and 2 are one page, 1 and 3 another: out of order on purpose. Page 0 repeats `retry` 3 times.
    const grouped = KeywordIndex.of(chunks).grouped(Uint32Array.from([0, 1, 0, 1]), 2, [new Map([['retry', 3]]), undefined]);
    const whole = KeywordIndex.of([
      [['retry', 3], ['backoff', 1], ['jitter', 2]],
      [['queue', 3], ['backoff', 4]],
    ]);
    for (const terms of [['retry'], ['backoff'], ['queue', 'jitter'], ['backoff', 'retry']]) {
      for (const page of [0, 1]) {
        assert.equal(grouped.score(grouped.prepare(terms), page), whole.score(whole.prepare(terms), page), `${terms.join(' ')} on page ${page}`);
      }
    }
    assert.equal(grouped.documentFrequency('backoff'), 2);
  });

  it('counts and corrects typos against only the documents not hidden, whichever list is the shorter', () => {
    const index = KeywordIndex.of([[['backoff', 1]], [['backoff', 1], ['zeppelin', 1]], [['backoff', 1]], [['queue', 1]]]);
    assert.equal(index.documentFrequency('backoff', Uint32Array.from([])), 3);
    assert.equal(index.documentFrequency('backoff', Uint32Array.from([1])), 2);
    assert.equal(index.documentFrequency('backoff', Uint32Array.from([0, 1, 2, 3])), 0);
    assert.equal(index.documentFrequency('zeppelin', Uint32Array.from([0, 2, 3])), 1);
    assert.equal(index.documentFrequency('zeppelin', Uint32Array.from([1, 3])), 0);
    const typos = new TypoCorrector(index);
    assert.equal(typos.correct('zepelin'), 'zeppelin');
    assert.equal(typos.correct('zepelin', Uint32Array.from([0, 2])), 'zeppelin');
    assert.equal(typos.correct('zepelin', Uint32Array.from([1])), undefined);
  });

  it('scores documents with others hidden exactly as an index that never held those', () => {
    const docs: Array<Array<[string, number]>> = [
      [['backoff', 2], ['queue', 1]],
      [['backoff', 1], ['zeppelin', 9], ['crate', 5]],
      [['queue', 3]],
      [['backoff', 1], ['crate', 1]],
      [['zeppelin', 2], ['queue', 4], ['crate', 7]],
    ];
    const index = KeywordIndex.of(docs);
    assert.equal(index.without(Uint32Array.from([])), undefined);
    // Two hidden documents, then one: frequencies are counted through the mask, then by binary search.
    for (const hiddenIds of [[1, 4], [4]]) {
      const hidden = index.without(Uint32Array.from(hiddenIds))!;
      const kept = [0, 1, 2, 3, 4].filter((id) => !hiddenIds.includes(id));
      const alone = KeywordIndex.of(kept.map((id) => docs[id]!));
      for (const terms of [['backoff'], ['queue', 'crate'], ['zeppelin'], ['zeppelin', 'queue'], ['backoff', 'queue', 'crate']]) {
        const query = index.prepare(terms, hidden);
        const aloneQuery = alone.prepare(terms);
        kept.forEach((id, at) => assert.equal(index.score(query, id), alone.score(aloneQuery, at), `${terms.join(' ')} on ${id}`));
        const found = index.search(query, 5, (id) => kept.includes(id)).map(({ index: id, score }) => [kept.indexOf(id), score]);
        assert.deepEqual(found, alone.search(aloneQuery, 5, () => true).map(({ index: id, score }) => [id, score]), terms.join(' '));
      }
      for (const term of ['backoff', 'queue', 'crate', 'zeppelin', 'backoff']) {
        assert.equal(index.documentFrequency(term, hidden), alone.documentFrequency(term), `${term} without ${hiddenIds.join(' ')}`);
      }
    }
  });
});

/** Pages as a title, access groups and sections (heading, text): one chunk a section, as indexing cuts them. */
interface TestPage {
  path: string;
  title: string;
  groups?: string[];
  sections: Array<[string, string]>;
}

const PUBLIC_PAGES: TestPage[] = [
  { path: '/guides/retries', title: 'Retries', sections: [['', 'Failed deliveries retry with backoff.'], ['Backoff', 'Exponential backoff doubles the delay between attempts.'], ['Vertex', 'A vertex joins two routes of the delivery graph.']] },
  { path: '/concepts/delivery', title: 'Delivery', sections: [['', 'Each parcel is delivered once; a failure is retried with backoff along the kestral route.']] },
  { path: '/reference/limits', title: 'Limits', sections: [['', 'A crate holds forty parcels. Backoff applies to rate-limited calls.'], ['Crates', 'Crates stack four high.']] },
  { path: '/guides/webhooks', title: 'Webhooks', sections: [['', 'Webhook calls that fail use backoff too, with a delay.']] },
];

/** Restricted pages that share the public pages' words, hold words of their own, and are long (the average length moves). */
const RESTRICTED_PAGES: TestPage[] = [
  {
    path: '/staff/operations',
    title: 'Operations backoff',
    groups: ['staff'],
    sections: [
      ['', 'Staff tune backoff, retries and the delay of every parcel and crate here. '.repeat(6)],
      ['Vortex', 'The vortex queue holds parcels the zeppelin carries. Kestrel kestrel kestrel.'],
    ],
  },
  { path: '/staff/kestrels', title: 'Kestrels', groups: ['staff'], sections: [['', 'A kestrel route for webhooks, with backoff.']] },
  { path: '/partners/sso', title: 'Partner sign-in', groups: ['partners', 'staff'], sections: [['', 'Partners sign in through Keycloak; webhook retries use backoff.']] },
];

function storedChunks(pages: TestPage[]): StoredChunk[] {
  return pages.flatMap((page) =>
    page.sections.map(([heading, content]) => {
      const chunk = { path: page.path, anchor: heading.toLowerCase(), title: page.title, breadcrumb: [page.title, ...(heading ? [heading] : [])], headings: heading, content, groups: page.groups ?? [] };
      return { ...chunk, terms: [...chunkTerms(chunk)] };
    }),
  );
}

/** What a reader of `groups` is shown for `query` on a domain of `pages`: the resolved terms, and pages with their chunks and exact scores. */
function ranking(pages: TestPage[], query: string, groups?: string[]) {
  const chunks = storedChunks(pages);
  const indexes = buildKeywordIndexes(chunks);
  const hidden = hiddenFrom(indexes, groups);
  const terms = queryTermsFor(indexes, query, undefined, hidden);
  const ranked = rankPages(indexes, terms, 10, { acceptChunk: (i) => matchesFilter(chunks[i]!, { groups }), ...(hidden ? { hidden } : {}) });
  return {
    terms,
    pages: ranked.map(({ page, score, chunks: best }) => ({
      path: chunks[indexes.pageDocs.firstChunk[page]!]!.path,
      score,
      chunks: best.map(({ index, score: chunkScore }) => [chunks[index]!.anchor, chunkScore]),
    })),
  };
}

const QUERIES = ['backoff', 'backoff retries', 'crate parcels delay', 'webhooks backoff', 'vortex', 'kestril route', 'zeppelin', 'keycloak backoff', 'deliveries'];

describe('keyword search of a reader who may not see every page', () => {
  it('ranks and scores as if the pages hidden from the reader were not in the domain', () => {
    const sites: Array<[string[] | undefined, TestPage[]]> = [
      [undefined, PUBLIC_PAGES],
      [[], PUBLIC_PAGES],
      [['others'], PUBLIC_PAGES],
      [['partners'], [...PUBLIC_PAGES, RESTRICTED_PAGES[2]!]],
    ];
    for (const [groups, visible] of sites) {
      for (const query of QUERIES) {
        assert.deepEqual(ranking([...PUBLIC_PAGES, ...RESTRICTED_PAGES], query, groups), ranking(visible, query, groups), `${query} for ${JSON.stringify(groups)}`);
      }
    }
  });

  it('reads a word only restricted pages hold as a word on no page, and corrects no typo to one of theirs', () => {
    const term = (word: string) => tokenise(word)[0]!;
    const all = [...PUBLIC_PAGES, ...RESTRICTED_PAGES];
    // `vortex` is on a staff page only: corrected to the public `vertex`, as `vertix`, a word on no page, is.
    assert.deepEqual(ranking(all, 'vortex').terms, [term('vertex')]);
    assert.deepEqual(ranking(all, 'vortex').pages, ranking(all, 'vertix').pages);
    assert.equal(ranking(all, 'vortex').pages[0]?.path, '/guides/retries');
    // More pages hold `kestrel`, but only staff pages: the reader's typo finds the public `kestral`.
    assert.deepEqual(ranking(all, 'kestril').terms, [term('kestral')]);
    assert.deepEqual(ranking(all, 'kestril').pages.map((p) => p.path), ['/concepts/delivery']);
    // A word with no public neighbour finds nothing, held by a hidden page or by none.
    assert.deepEqual(ranking(all, 'zeppelin').pages, []);
    assert.deepEqual(ranking(all, 'zeppelin backoff'), { ...ranking(all, 'zyxwvut backoff'), terms: [term('zeppelin'), term('backoff')] });
  });

  it('gives a reader of the groups what a domain whose pages were all public gives', () => {
    const open = RESTRICTED_PAGES.map(({ groups: _groups, ...page }) => page);
    for (const query of QUERIES) {
      assert.deepEqual(ranking([...PUBLIC_PAGES, ...RESTRICTED_PAGES], query, ['staff']), ranking([...PUBLIC_PAGES, ...open], query), query);
    }
    assert.equal(ranking([...PUBLIC_PAGES, ...RESTRICTED_PAGES], 'kestril', ['staff']).terms[0], tokenise('kestrel')[0]);
  });

  it('keeps the counts of each set of hidden pages once, apart from the next set’s', () => {
    const indexes = buildKeywordIndexes(storedChunks([...PUBLIC_PAGES, ...RESTRICTED_PAGES]));
    assert.equal(hiddenFrom(indexes, ['staff']), undefined, 'nothing hidden: the plain path');
    const none = hiddenFrom(indexes, undefined);
    assert.equal(hiddenFrom(indexes, ['others']), none);
    const partners = hiddenFrom(indexes, ['partners']);
    assert.notEqual(partners, none);
    assert.equal(none?.pages.count, PUBLIC_PAGES.length);
    assert.equal(partners?.pages.count, PUBLIC_PAGES.length + 1);
    assert.deepEqual([...(none?.chunks.ids ?? [])], [7, 8, 9, 10]);
  });
});
