/**
 * Indexing speed of the embedded store, keyword-only: 2,000 generated MDX
 * pages, then a re-index of the unchanged folder. Usage: npm run bench:index
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedDocIndex } from '../core/retrieval/embedded-store.js';
import { indexDocs } from '../core/retrieval/index-docs.js';
import { generatePage, seededRandom, vocabulary } from './generate-docs.js';

const PAGES = Number(process.env.BENCH_PAGES ?? 2000);

async function main(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-index-'));
  try {
    const docs = path.join(root, 'docs');
    const random = seededRandom(42);
    const { draw } = vocabulary(20_000, random);
    for (let i = 0; i < PAGES; i++) {
      const file = path.join(docs, `section-${i % 20}`, `page-${i}.mdx`);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, generatePage(i, draw, random));
    }
    const index = new EmbeddedDocIndex(path.join(root, 'index'));
    const t0 = performance.now();
    const first = await indexDocs(index, 'bench', docs, { includeHidden: false });
    const firstMs = performance.now() - t0;
    const t1 = performance.now();
    const again = await indexDocs(index, 'bench', docs, { includeHidden: false });
    const againMs = performance.now() - t1;
    const size = (await fs.stat(path.join(root, 'index', 'bench.json'))).size;
    // Another process (the API) opening the index: load the snapshot and build the inverted index on first search.
    const t2 = performance.now();
    const hits = await new EmbeddedDocIndex(path.join(root, 'index')).search('bench', { query: `${draw()} ${draw()}`, pageSize: 5 });
    const loadMs = performance.now() - t2;
    console.log(`first index: ${first.pages} pages, ${first.chunks} chunks in ${(firstMs / 1000).toFixed(2)} s → ${Math.round(first.pages / (firstMs / 1000))} pages/s (target ≥ 300)`);
    console.log(`re-index unchanged: ${again.unchanged} unchanged in ${(againMs / 1000).toFixed(3)} s → ${((againMs / firstMs) * 100).toFixed(1)}% of the first run (target ≤ 10%)`);
    console.log(`index file: ${(size / 1024 / 1024).toFixed(1)} MiB; a fresh reader loads it and answers its first search in ${loadMs.toFixed(0)} ms (${hits.length} hits)`);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
