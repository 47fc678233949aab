/**
 * Indexing cost of the embedded store, keyword-only, in CPU seconds
 * (process.cpuUsage, all threads) and pages per second:
 *  1. a generated Mintlify site of about 265 pages (tabs, groups with roots,
 *     hidden tabs, a long noindex changelog, MDX components): first index,
 *     unchanged re-index, and a re-index with 5 pages edited;
 *  2. a large generated site (BENCH_PAGES, default 2,000 pages): first index,
 *     and a re-index with 1% of the pages edited, against an unchanged one.
 *  3. with BENCH_EMBEDDER=local, the Mintlify site again with the local
 *     embedder (one vector per page, see infra/embedder.ts): first index and
 *     a re-index with 5 pages edited, in wall seconds (the vector cache keeps
 *     the unchanged pages' vectors).
 * Usage: npm run bench:index (BENCH_EMBEDDER=local BENCH_PAGES=0 for the embedder run alone)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedDocIndex } from '../core/retrieval/embedded-store.js';
import { createVectorCache } from '../core/retrieval/index.js';
import { openMigratedDatabase } from '../core/db/index.js';
import { benchLocalEmbedder } from './local-embedder.js';
import { indexDocs } from '../core/retrieval/index-docs.js';
import { generatePage, seededRandom, vocabulary } from './generate-docs.js';
import { writeMintlifySite } from './mintlify-site.js';

const PAGES = Number(process.env.BENCH_PAGES ?? 2000);

/**
 * The code before the docs module (commit ab8015e: remark/micromark parsing,
 * the whole snapshot rewritten per batch), measured with this script on the
 * same generated sites, on the development machine (2 shared cores; the
 * lower of two runs: 7.1 and 8.8 s for the Mintlify site).
 */
const BEFORE = { mintlifyFirstCpu: 7.1, mintlifyPages: 227, largeFirstCpu: 10.9, largeEditCpu: 0.76 };

interface Run {
  cpu: number;
  wall: number;
  pages: number;
  chunks: number;
  unchanged: number;
}

async function measure(fn: () => Promise<{ pages: number; chunks: number; unchanged: number }>): Promise<Run> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const summary = await fn();
  const cpu = process.cpuUsage(cpu0);
  return { cpu: (cpu.user + cpu.system) / 1e6, wall: (performance.now() - t0) / 1000, ...summary };
}

/** Rewrites a page's text so its hash changes (what an author's edit does). */
async function edit(file: string): Promise<void> {
  const text = await fs.readFile(file, 'utf8');
  await fs.writeFile(file, `${text}\nEdited for the re-index run.\n`);
}

async function bytesOf(dir: string): Promise<number> {
  let total = 0;
  for (const name of await fs.readdir(dir)) total += (await fs.stat(path.join(dir, name))).size;
  return total;
}

const s = (n: number) => `${n.toFixed(2)} s`;

async function mintlifySite(root: string): Promise<void> {
  const docs = path.join(root, 'mintlify');
  const random = seededRandom(7);
  const { draw } = vocabulary(20_000, random);
  const site = await writeMintlifySite(docs, { draw, random });
  const index = new EmbeddedDocIndex(path.join(root, 'mintlify-index'));
  const first = await measure(() => indexDocs(index, 'site', docs, { includeHidden: false }));
  const again = await measure(() => indexDocs(index, 'site', docs, { includeHidden: false }));
  for (const file of site.files.filter((f) => f.startsWith('guides/page-')).slice(0, 5)) await edit(path.join(docs, file));
  const edited = await measure(() => indexDocs(index, 'site', docs, { includeHidden: false }));
  console.log(`Mintlify-style site: ${site.pages} page files, ${site.searchable} searchable`);
  console.log(
    `  first index: ${first.pages} pages, ${first.chunks} chunks, ${s(first.cpu)} CPU (${s(first.wall)} wall) → ${Math.round(first.pages / first.cpu)} pages per CPU second; ` +
      `before: ${s(BEFORE.mintlifyFirstCpu)} CPU for ${BEFORE.mintlifyPages} pages → ${(BEFORE.mintlifyFirstCpu / first.cpu).toFixed(1)}× less CPU (target ≤ 2 s)`,
  );
  console.log(`  re-index, nothing changed: ${s(again.cpu)} CPU (${((again.cpu / first.cpu) * 100).toFixed(0)}% of the first)`);
  console.log(`  re-index, 5 pages edited: ${s(edited.cpu)} CPU (${((edited.cpu / first.cpu) * 100).toFixed(0)}% of the first)`);
}

async function largeSite(root: string): Promise<void> {
  const docs = path.join(root, 'large');
  const random = seededRandom(42);
  const { draw } = vocabulary(20_000, random);
  const files: string[] = [];
  for (let i = 0; i < PAGES; i++) {
    const file = path.join(docs, `section-${i % 20}`, `page-${i}.mdx`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, generatePage(i, draw, random));
    files.push(file);
  }
  const dir = path.join(root, 'large-index');
  const index = new EmbeddedDocIndex(dir);
  // 250 pages per write, as the indexing workflow's batches.
  const first = await measure(() => indexDocs(index, 'large', docs, { includeHidden: false, batchSize: 250 }));
  const stored = await bytesOf(dir);
  const again = await measure(() => indexDocs(index, 'large', docs, { includeHidden: false, batchSize: 250 }));
  const changed = Math.max(1, Math.round(PAGES / 100));
  for (const file of files.slice(0, changed)) await edit(file);
  const before = await bytesOf(dir);
  const edited = await measure(() => indexDocs(index, 'large', docs, { includeHidden: false, batchSize: 250 }));
  const grown = (await bytesOf(dir)) - before;
  // Another process (the API) opening the index: load the files and build the inverted index on first search.
  const t0 = performance.now();
  const hits = await new EmbeddedDocIndex(dir).search('large', { query: `${draw()} ${draw()}`, pageSize: 5 });
  const loadMs = performance.now() - t0;
  console.log(`Large generated site: ${PAGES} pages`);
  console.log(
    `  first index: ${first.chunks} chunks, ${s(first.cpu)} CPU → ${Math.round(first.pages / first.cpu)} pages per CPU second, ${Math.round(first.pages / first.wall)} pages/s wall` +
      (PAGES === 2000 ? `; before: ${s(BEFORE.largeFirstCpu)} CPU (${(BEFORE.largeFirstCpu / first.cpu).toFixed(1)}× less)` : ''),
  );
  console.log(`  re-index, nothing changed: ${s(again.cpu)} CPU (${((again.cpu / first.cpu) * 100).toFixed(1)}% of the first)`);
  console.log(
    `  re-index, ${changed} pages edited: ${s(edited.cpu)} CPU (${((edited.cpu / first.cpu) * 100).toFixed(1)}% of the first; ${((edited.cpu - again.cpu) * 1000 / changed).toFixed(1)} ms per edited page over an unchanged run), ` +
      `the index files grew by ${(grown / 1024).toFixed(0)} KiB beside ${(stored / 1024 / 1024).toFixed(1)} MiB stored` +
      (PAGES === 2000 ? `; before: ${s(BEFORE.largeEditCpu)} CPU` : ''),
  );
  console.log(`  a fresh reader loads the index and answers its first search in ${loadMs.toFixed(0)} ms (${hits.length} hits)`);
}

/** The Mintlify site indexed with the local embedder: what `npm start` does with QUIRE_EMBEDDER=local. */
async function mintlifySiteEmbedded(root: string): Promise<void> {
  const docs = path.join(root, 'mintlify-embedded');
  const random = seededRandom(7);
  const { draw } = vocabulary(20_000, random);
  const site = await writeMintlifySite(docs, { draw, random });
  const { server, embedder } = await benchLocalEmbedder(root);
  try {
    const embedding = { embedder, cache: createVectorCache(await openMigratedDatabase({ dialect: 'sqlite', file: path.join(root, 'vectors.db') })), batchSize: 16 };
    const index = new EmbeddedDocIndex(path.join(root, 'mintlify-embedded-index'));
    const first = await measure(() => indexDocs(index, 'site', docs, { includeHidden: false, embedding }));
    for (const file of site.files.filter((f) => f.startsWith('guides/page-')).slice(0, 5)) await edit(path.join(docs, file));
    const edited = await measure(() => indexDocs(index, 'site', docs, { includeHidden: false, embedding }));
    console.log(`Mintlify-style site with the local embedder (${first.pages} pages, one vector each):`);
    console.log(`  first index: ${s(first.wall)} wall (target ≤ 120 s on 2 cores)`);
    console.log(`  re-index, 5 pages edited: ${s(edited.wall)} wall (target ≤ 5 s)`);
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-index-'));
  try {
    if (process.env.BENCH_EMBEDDER === 'local') await mintlifySiteEmbedded(root);
    await mintlifySite(root);
    if (PAGES > 0) await largeSite(root);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
