import assert from 'node:assert/strict';
import path from 'node:path';
import { EmbeddedDocIndex } from '../../../core/retrieval/embedded-store.js';
import { indexDocs } from '../../../core/retrieval/index-docs.js';
import type { WritableDocIndex } from '../../../core/retrieval/index.js';
import { QdrantDocIndex } from '../../../core/retrieval/qdrant-store.js';
import { startFakeQdrant } from '../../fakes/qdrant-server.js';
import { tempDir } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

const EXAMPLE_DOCS = path.resolve(__dirname, '..', '..', '..', 'infra', 'example-docs');

// Qdrant cannot run here: its adapter runs unchanged against test/fakes/qdrant-server.ts.
const stores: Array<[string, () => Promise<WritableDocIndex>]> = [
  ['embedded', async () => new EmbeddedDocIndex(await tempDir())],
  [
    'qdrant (fake server)',
    async () => {
      const qdrant = await startFakeQdrant();
      onSuiteEnd(qdrant.close);
      return new QdrantDocIndex({ url: qdrant.url, apiKey: undefined, collection: 'c' });
    },
  ],
];

for (const [name, open] of stores) {
  describe(`page listing and generation: ${name}`, () => {
    it('lists every indexed page by path with title, description, sections and groups; content only when asked', async () => {
      const ix = await open();
      await indexDocs(ix, 'skylark', EXAMPLE_DOCS, { includeHidden: false });
      const pages = await ix.listPages('skylark');
      assert.equal(pages.length, 20);
      assert.deepEqual(pages.map((p) => p.path), [...pages.map((p) => p.path)].sort());
      assert.ok(!pages.some((p) => p.path === '/internal/runbook'), 'a hidden page is not in the index, so not listed');
      const quickstart = pages.find((p) => p.path === '/quickstart');
      assert.deepEqual(quickstart, {
        path: '/quickstart',
        title: 'Quickstart',
        description: 'Create a project, push a job and run a worker.',
        sections: ['Documentation', 'Get started'],
        groups: [],
        version: 'v2',
        language: 'en',
      });
      assert.deepEqual(pages.find((p) => p.path === '/enterprise/sso')?.groups, ['enterprise']);
      const full = await ix.listPages('skylark', { content: true });
      assert.match(full.find((p) => p.path === '/quickstart')?.content ?? '', /five minutes/);
      assert.deepEqual(await ix.listPages('other'), []);
    });

    it('changes the generation when the index changes, and only then', async () => {
      const ix = await open();
      const empty = await ix.generation('skylark');
      await indexDocs(ix, 'skylark', EXAMPLE_DOCS, { includeHidden: false });
      const indexed = await ix.generation('skylark');
      assert.notEqual(indexed, empty);
      await indexDocs(ix, 'skylark', EXAMPLE_DOCS, { includeHidden: false });
      assert.equal(await ix.generation('skylark'), indexed, 'an unchanged re-index keeps the generation');
      await ix.applyChanges('skylark', { upserts: [], removals: ['/quickstart'] });
      assert.notEqual(await ix.generation('skylark'), indexed);
    });
  });
}
