/**
 * Retrieval quality, keyword-only, over the embedded store: recall@5 and MRR
 * of labelled questions on the example docs and on undici's docs (MIT,
 * copied from the installed package into eval/corpora/undici).
 * Usage: npm run eval
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedDocIndex } from '../core/retrieval/embedded-store.js';
import { indexDocs } from '../core/retrieval/index-docs.js';

interface Question {
  q: string;
  /** Pages that answer it; any of them counts. */
  pages: string[];
}

const ROOT = path.resolve(__dirname, '..');
const SETS = [
  { name: 'example-docs', docs: path.join(ROOT, 'infra', 'example-docs'), questions: path.join(__dirname, 'questions', 'example-docs.json') },
  { name: 'undici', docs: path.join(__dirname, 'corpora', 'undici'), questions: path.join(__dirname, 'questions', 'undici.json') },
];
const K = 5;

/** Distinct pages in the order their best chunk ranks. */
function rankedPages(paths: string[]): string[] {
  return [...new Set(paths)];
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-eval-'));
  const index = new EmbeddedDocIndex(dir);
  let allHits = 0;
  let allRr = 0;
  let allCount = 0;
  try {
    for (const set of SETS) {
      const summary = await indexDocs(index, set.name, set.docs, { includeHidden: false });
      const questions = JSON.parse(await fs.readFile(set.questions, 'utf8')) as Question[];
      let hits = 0;
      let rr = 0;
      const misses: string[] = [];
      for (const { q, pages } of questions) {
        const results = await index.search(set.name, { query: q, pageSize: 20 });
        const ranked = rankedPages(results.map((r) => r.path));
        const at = ranked.findIndex((p) => pages.includes(p));
        if (at >= 0 && at < K) hits++;
        else misses.push(`  miss: "${q}" → wanted ${pages.join(' or ')}, got ${ranked.slice(0, 3).join(', ') || 'nothing'}`);
        if (at >= 0) rr += 1 / (at + 1);
      }
      allHits += hits;
      allRr += rr;
      allCount += questions.length;
      console.log(
        `${set.name}: ${summary.pages} pages, ${summary.chunks} chunks, ${questions.length} questions — ` +
          `recall@${K} ${(hits / questions.length).toFixed(3)}, MRR ${(rr / questions.length).toFixed(3)}`,
      );
      for (const m of misses) console.log(m);
    }
    console.log(`overall: ${allCount} questions — recall@${K} ${(allHits / allCount).toFixed(3)}, MRR ${(allRr / allCount).toFixed(3)}`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
