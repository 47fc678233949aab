/**
 * Search latency of the embedded store's keyword index at 10,000 and 100,000
 * chunks (median and p99), beside a brute-force scan of the same chunks; then
 * in-process search through the store on an indexed Mintlify-style site of
 * about 265 pages (the figure the assistant sees before any network).
 * With BENCH_EMBEDDER=local the site is also searched hybrid, through the
 * local embedder (one query embedding per search): median and p95 with and
 * without it.
 * Usage: npm run bench:search (BENCH_CHUNKS=10000 for one size, empty for the site only)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildKeywordIndex, EmbeddedDocIndex, searchLoaded } from '../core/retrieval/embedded-store.js';
import { createVectorCache, QueryEmbedder } from '../core/retrieval/index.js';
import { openMigratedDatabase } from '../core/db/index.js';
import { benchLocalEmbedder } from './local-embedder.js';
import { indexDocs } from '../core/retrieval/index-docs.js';
import { chunkTerms } from '../core/retrieval/keyword-index.js';
import type { Snapshot, StoredChunk } from '../core/retrieval/snapshot-file.js';
import { tokenise } from '../core/retrieval/tokenise.js';
import { seededRandom, sentence, vocabulary } from './generate-docs.js';
import { writeMintlifySite } from './mintlify-site.js';

const QUERIES = 300;

function makeSnapshot(chunks: number, draw: () => string, random: () => number): Snapshot {
  const out: StoredChunk[] = [];
  for (let i = 0; i < chunks; i++) {
    const title = `${draw()} ${draw()}`;
    const heading = `${draw()} ${draw()}`;
    const content = Array.from({ length: 4 + Math.floor(random() * 4) }, () => sentence(draw, random)).join(' ');
    const chunk = {
      path: `/page-${Math.floor(i / 4)}`, anchor: heading.replace(' ', '-'), title, breadcrumb: [title, heading], headings: heading, content,
      groups: [], ...(i % 10 === 0 ? { version: 'v1' } : {}),
    };
    out.push({ ...chunk, terms: [...chunkTerms(chunk)] });
  }
  return { format: 1, pages: {}, chunks: out };
}

/** Scores every chunk from its own term list: what a store without an inverted index would do. */
function bruteForce(snapshot: Snapshot, query: string, limit: number): number[] {
  const terms = [...new Set(tokenise(query))];
  const n = snapshot.chunks.length;
  const df = new Map<string, number>();
  let total = 0;
  const scores: Array<[number, number]> = [];
  for (const c of snapshot.chunks) {
    for (const [t, tf] of c.terms) {
      total += tf;
      if (terms.includes(t)) df.set(t, (df.get(t) ?? 0) + 1);
    }
  }
  const avg = total / n;
  snapshot.chunks.forEach((c, i) => {
    const len = c.terms.reduce((s, [, tf]) => s + tf, 0);
    let score = 0;
    for (const [t, tf] of c.terms) {
      const d = df.get(t);
      if (!d) continue;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len) / avg));
    }
    if (score > 0) scores.push([i, score]);
  });
  return scores.sort((a, b) => b[1] - a[1]).slice(0, limit).map(([i]) => i);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

function report(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `${label}: median ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`;
}

/** Queries through EmbeddedDocIndex.search, as the API calls it (p50 target < 0.5 ms). */
async function mintlifySite(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-search-'));
  try {
    const random = seededRandom(7);
    const { draw } = vocabulary(20_000, random);
    const site = await writeMintlifySite(path.join(root, 'docs'), { draw, random });
    const index = new EmbeddedDocIndex(path.join(root, 'index'));
    const summary = await indexDocs(index, 'site', path.join(root, 'docs'), { includeHidden: false });
    const queries = Array.from({ length: QUERIES }, () => Array.from({ length: 2 + Math.floor(random() * 4) }, draw).join(' '));
    for (const q of queries.slice(0, 20)) await index.search('site', { query: q, pageSize: 10 });
    const times: number[] = [];
    for (const q of queries) {
      const t = performance.now();
      await index.search('site', { query: q, pageSize: 10 });
      times.push(performance.now() - t);
    }
    console.log(`Mintlify-style site (${site.pages} page files, ${summary.pages} indexed, ${summary.chunks} chunks), in-process through the store:`);
    console.log(`  ${report('search', times)} (target: median < 0.5 ms)`);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

/** Keyword against hybrid search on the site, the query embedded by the local embedder each time. */
async function withEmbedder(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-search-'));
  const { server, embedder } = await benchLocalEmbedder(root);
  try {
    const random = seededRandom(7);
    const { draw } = vocabulary(20_000, random);
    await writeMintlifySite(path.join(root, 'docs'), { draw, random });
    const dir = path.join(root, 'index');
    await indexDocs(new EmbeddedDocIndex(dir), 'site', path.join(root, 'docs'), {
      includeHidden: false, embedding: { embedder, cache: createVectorCache(await openMigratedDatabase({ dialect: 'sqlite', file: path.join(root, 'vectors.db') })), batchSize: 16 },
    });
    const keyword = new EmbeddedDocIndex(dir);
    const hybrid = new EmbeddedDocIndex(dir, new QueryEmbedder(embedder, 60_000));
    const queries = Array.from({ length: 100 }, () => Array.from({ length: 3 + Math.floor(random() * 6) }, draw).join(' '));
    const timed = async (index: EmbeddedDocIndex) => {
      for (const q of queries.slice(0, 10)) await index.search('site', { query: q, pageSize: 10 });
      const times: number[] = [];
      for (const q of queries) {
        const t = performance.now();
        await index.search('site', { query: q, pageSize: 10 });
        times.push(performance.now() - t);
      }
      return times;
    };
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const k = sorted(await timed(keyword));
    const h = sorted(await timed(hybrid));
    const line = (label: string, xs: number[]) => `  ${label}: median ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms`;
    console.log('Mintlify-style site, keyword against hybrid with the local embedder (target: + ≤ 30 ms at the median):');
    console.log(line('keyword', k));
    console.log(line('hybrid ', h));
  } finally {
    await server.stop();
    await fs.rm(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.env.BENCH_EMBEDDER === 'local') await withEmbedder();
  await mintlifySite();
  for (const size of (process.env.BENCH_CHUNKS ?? '10000,100000').split(',').filter(Boolean).map(Number)) {
    const random = seededRandom(size);
    const { draw } = vocabulary(30_000, random);
    const t0 = performance.now();
    const snapshot = makeSnapshot(size, draw, random);
    const built = performance.now();
    const keyword = buildKeywordIndex(snapshot);
    const indexed = performance.now();
    const queries = Array.from({ length: QUERIES }, () => Array.from({ length: 2 + Math.floor(random() * 4) }, draw).join(' '));
    // Warm-up so the JIT does not count against the first queries.
    for (const q of queries.slice(0, 20)) searchLoaded(snapshot, keyword, { query: q, pageSize: 10 });
    const indexedTimes = queries.map((q) => time(() => searchLoaded(snapshot, keyword, { query: q, pageSize: 10 })));
    const filtered = queries.map((q) => time(() => searchLoaded(snapshot, keyword, { query: q, pageSize: 10, filter: { version: 'v2' } })));
    const bruteTimes = queries.slice(0, size > 50_000 ? 50 : 150).map((q) => time(() => bruteForce(snapshot, q, 10)));
    console.log(`${size.toLocaleString('en')} chunks (generated in ${((built - t0) / 1000).toFixed(1)} s, inverted index built in ${(indexed - built).toFixed(0)} ms):`);
    console.log(`  ${report('inverted index', indexedTimes)} (targets: median ≤ 5 ms, p99 ≤ 25 ms)`);
    console.log(`  ${report('inverted index + version filter', filtered)}`);
    console.log(`  ${report('brute-force scan', bruteTimes)}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
