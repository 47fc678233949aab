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
 *     a re-index with 5 pages retitled, in wall and CPU seconds (the vector cache keeps
 *     the unchanged pages' vectors).
 * Usage: npm run bench:index (BENCH_EMBEDDER=local BENCH_PAGES=0 for the embedder run alone)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedDocIndex } from '../core/retrieval/embedded-store.js';
import { createVectorCache, QueryEmbedder, type Embedder } from '../core/retrieval/index.js';
import { pageEmbeddingText } from '../core/retrieval/page-embedding.js';
import { readPage } from '../core/retrieval/read-page.js';
import { listPageFiles, readNavigation } from '../core/docs/index.js';
import { openMigratedDatabase } from '../core/db/index.js';
import { benchLocalEmbedder } from './local-embedder.js';
import type { LocalEmbedder } from '../infra/embedder.js';
import { indexDocs } from '../core/retrieval/index-docs.js';
import { generatePage, seededRandom, vocabulary } from './generate-docs.js';
import { writeMintlifySite } from './mintlify-site.js';

const PAGES = Number(process.env.BENCH_PAGES ?? 2000);
/** Pages per embeddings request in the embedder run, as the indexing worker's QUIRE_EMBEDDING_BATCH_SIZE. */
const BATCH = Number(process.env.BENCH_EMBEDDING_BATCH ?? 16);
/** Page texts the embedder's own throughput is measured on, and searches per latency figure. */
const SAMPLE_PAGES = 32;
const QUERIES = 40;

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
  cachedVectors: number;
}

async function measure(fn: () => Promise<{ pages: number; chunks: number; unchanged: number; cachedVectors: number }>): Promise<Run> {
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

/** Changes a page's title: an edit its embedded text sees. */
async function retitle(file: string): Promise<void> {
  const text = await fs.readFile(file, 'utf8');
  await fs.writeFile(file, text.replace(/^title: *["']?(.*?)["']?$/m, 'title: "$1, revised"'));
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

/** CPU seconds a process has used so far, all its threads (Linux `/proc`): the embedder's own cost. */
async function processCpu(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The embedder with every request timed: how much of an index run is spent waiting for vectors. */
function timedEmbedder(inner: Embedder): Embedder & { spent: { wall: number; texts: number; requests: number } } {
  const spent = { wall: 0, texts: 0, requests: 0 };
  return {
    id: inner.id,
    spent,
    async embed(texts, kind, signal) {
      const t0 = performance.now();
      try {
        return await inner.embed(texts, kind, signal);
      } finally {
        spent.wall += (performance.now() - t0) / 1000;
        spent.texts += texts.length;
        spent.requests++;
      }
    },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

interface Latency {
  p50: number;
  p90: number;
  modes: Set<string>;
}

/**
 * Median and p90 of each index's searches, in milliseconds: every query is asked of every
 * index in turn, the order rotating from one query to the next, so a change of load reaches all alike.
 */
async function searchLatencies(indexes: EmbeddedDocIndex[], queries: string[]): Promise<Latency[]> {
  const times = indexes.map(() => [] as number[]);
  const modes = indexes.map(() => new Set<string>());
  for (const [q, query] of queries.entries()) {
    for (let turn = 0; turn < indexes.length; turn++) {
      const i = (q + turn) % indexes.length;
      const t0 = performance.now();
      const hits = await indexes[i]!.search('site', { query, pageSize: 5 });
      times[i]!.push(performance.now() - t0);
      for (const hit of hits) modes[i]!.add(hit.metadata.retrieval ?? '');
    }
  }
  return times.map((t, i) => {
    t.sort((a, b) => a - b);
    return { p50: percentile(t, 50), p90: percentile(t, 90), modes: modes[i]! };
  });
}

/** The server's inferences so far by the OpenMP thread count each ran with (its /health). */
async function inferencesByThreads(server: LocalEmbedder): Promise<Record<string, number>> {
  const res = await fetch(server.baseUrl.replace(/\/v1$/, '/health'));
  return ((await res.json()) as { inferences_by_threads: Record<string, number> }).inferences_by_threads;
}

/**
 * Searches of the embedded index keyword-only, with `server`'s embedder (`index`), and with a second
 * server that embeds every query on one thread, in alternating rounds; and the servers' CPU per query.
 */
async function queryLatencies(root: string, index: EmbeddedDocIndex, server: LocalEmbedder, queries: string[]) {
  const keywordOnly = new EmbeddedDocIndex(path.join(root, 'mintlify-embedded-index'));
  const single = await benchLocalEmbedder(root, { queryThreads: 1 });
  try {
    const oneThread = new EmbeddedDocIndex(path.join(root, 'mintlify-embedded-index'), new QueryEmbedder(single.embedder, 60_000));
    const indexes = [keywordOnly, index, oneThread];
    await searchLatencies(indexes, queries.slice(0, 3));
    const before = await inferencesByThreads(server);
    const cpu = [await processCpu(server.process.pid!), await processCpu(single.server.process.pid!)];
    const [keyword, hybrid, hybridOne] = await searchLatencies(indexes, queries);
    const queryEmbedderCpu = ((await processCpu(server.process.pid!)) - cpu[0]!) / queries.length;
    const queryEmbedderCpuOne = ((await processCpu(single.server.process.pid!)) - cpu[1]!) / queries.length;
    const after = await inferencesByThreads(server);
    const twoThreaded = (after['2'] ?? 0) - (before['2'] ?? 0);
    return { keyword: keyword!, hybrid: hybrid!, hybridOne: hybridOne!, queryEmbedderCpu, queryEmbedderCpuOne, twoThreaded };
  } finally {
    await single.server.stop();
  }
}

/**
 * The Mintlify site indexed with the local embedder: what `npm start` does with QUIRE_EMBEDDER=local.
 * On a shared machine wall times are inflated by other load, so the run also reports CPU seconds
 * (this process, and the embedder's own from /proc) and the embedder's throughput measured in the
 * same run on a sample of the site's page texts, from which the time on 2 idle cores is projected.
 */
async function mintlifySiteEmbedded(root: string): Promise<void> {
  const docs = path.join(root, 'mintlify-embedded');
  const random = seededRandom(7);
  const { draw } = vocabulary(20_000, random);
  const site = await writeMintlifySite(docs, { draw, random });
  const { server, embedder: local } = await benchLocalEmbedder(root);
  const pid = server.process.pid!;
  try {
    // Baseline of this run: the embedder alone on the site's own page texts (a keyword index reads them).
    const keywordIndex = new EmbeddedDocIndex(path.join(root, 'mintlify-keyword-index'));
    const keywordFirst = await measure(() => indexDocs(keywordIndex, 'site', docs, { includeHidden: false }));
    const navigation = await readNavigation(docs);
    const sampleTexts: string[] = [];
    for (const file of (await listPageFiles(docs)).slice(0, SAMPLE_PAGES * 2)) {
      const page = readPage({ file, text: await fs.readFile(path.join(docs, file), 'utf8') }, { navigation, scope: 'site', vectors: undefined });
      if (page?.chunks.length && sampleTexts.length < SAMPLE_PAGES) sampleTexts.push(pageEmbeddingText(page));
    }
    const sampleCpu0 = await processCpu(pid);
    const sampleT0 = performance.now();
    for (let i = 0; i < sampleTexts.length; i += BATCH) await local.embed(sampleTexts.slice(i, i + BATCH), 'passage');
    const sampleWall = (performance.now() - sampleT0) / 1000;
    const sampleCpu = (await processCpu(pid)) - sampleCpu0;
    const samplePerText = sampleCpu / sampleTexts.length;
    console.log(`Mintlify-style site with the local embedder (one vector per page, ${BATCH} per request; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores):`);
    console.log(
      `  the embedder alone, same run: ${sampleTexts.length} page texts in ${s(sampleWall)} wall, ${s(sampleCpu)} of its CPU → ` +
        `${(sampleTexts.length / sampleWall).toFixed(2)} texts/s wall, ${(1 / samplePerText).toFixed(2)} texts per embedder CPU second; ` +
        `keyword-only index of the same site: ${s(keywordFirst.cpu)} CPU`,
    );

    const embedder = timedEmbedder(local);
    const embedding = { embedder, cache: createVectorCache(await openMigratedDatabase({ dialect: 'sqlite', file: path.join(root, 'vectors.db') })), batchSize: BATCH };
    const index = new EmbeddedDocIndex(path.join(root, 'mintlify-embedded-index'), new QueryEmbedder(local, 60_000));
    const cpu0 = await processCpu(pid);
    const first = await measure(() => indexDocs(index, 'site', docs, { includeHidden: false, embedding }));
    const firstEmbedderCpu = (await processCpu(pid)) - cpu0;
    const firstEmbedWall = embedder.spent.wall;
    const firstTexts = embedder.spent.texts;
    const firstRequests = embedder.spent.requests;

    // Retitled, so the edit reaches each page's embedded text (an edit past its first 1,200 characters would not).
    for (const file of site.files.filter((f) => f.startsWith('guides/page-')).slice(0, 5)) await retitle(path.join(docs, file));
    embedder.spent.wall = 0;
    embedder.spent.texts = 0;
    const cpu1 = await processCpu(pid);
    const edited = await measure(() => indexDocs(index, 'site', docs, { includeHidden: false, embedding }));
    const editedEmbedderCpu = (await processCpu(pid)) - cpu1;

    // Queries: page titles and two-word phrases of the site, keyword-only and with the embedder on the same stored index;
    // also with a second server that embeds every query on one thread, as the server did before it used two for a lone query.
    const pages = await index.listPages('site');
    const queries = Array.from({ length: QUERIES }, (_, i) => (i % 2 === 0 ? pages[(i * 7) % pages.length]!.title : `${draw()} ${draw()}`));
    const { keyword, hybrid, hybridOne, queryEmbedderCpu, queryEmbedderCpuOne, twoThreaded } = await queryLatencies(root, index, server, queries);

    const perPage = firstEmbedderCpu / first.pages;
    console.log(
      `  first index: ${s(first.wall)} wall (target ≤ 120 s on 2 cores); ${firstTexts} texts embedded in ${firstRequests} requests taking ${s(firstEmbedWall)} wall ` +
        `(${((firstEmbedWall / first.wall) * 100).toFixed(0)}% of the run); the rest (reading, parsing, chunking, writes) ${s(first.wall - firstEmbedWall)}`,
    );
    console.log(
      `  CPU: embedder ${s(firstEmbedderCpu)} (${perPage.toFixed(3)} s per page), this process ${s(first.cpu)} (${((first.cpu / first.pages) * 1000).toFixed(1)} ms per page)`,
    );
    const projected = (firstEmbedderCpu / 2) + first.cpu;
    console.log(
      `  projected on 2 idle cores: ${s(projected)} (embedder CPU / 2 threads + this process's CPU, not overlapped; ` +
        `from the sample's rate alone: ${s((first.pages * samplePerText) / 2 + first.cpu)})`,
    );
    console.log(
      `  re-index, 5 pages edited: ${s(edited.wall)} wall (target ≤ 5 s), ${embedder.spent.texts} texts embedded, ${edited.cachedVectors} vectors from the cache; ` +
        `CPU: embedder ${s(editedEmbedderCpu)}, this process ${s(edited.cpu)}`,
    );
    console.log(
      `  queries (${QUERIES}, the same stored index, alternating): keyword-only median ${ms(keyword.p50)} (p90 ${ms(keyword.p90)}), with the embedder median ${ms(hybrid.p50)} (p90 ${ms(hybrid.p90)}) ` +
        `→ the embedder adds ${ms(hybrid.p50 - keyword.p50)} at the median (target ≤ 30 ms), ${ms(queryEmbedderCpu * 1000)} of its CPU per query, ` +
        `${twoThreaded} of ${QUERIES} on two threads; modes: ${[...hybrid.modes].join(', ')}`,
    );
    console.log(
      `  every query on one thread (a second server, --query-threads 1): median ${ms(hybridOne.p50)} (p90 ${ms(hybridOne.p90)}) → adds ${ms(hybridOne.p50 - keyword.p50)}, ` +
        `${ms(queryEmbedderCpuOne * 1000)} of its CPU per query`,
    );
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
