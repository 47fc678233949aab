/**
 * Fusion weights tried on the DEV split only: every question set is indexed
 * as the eval does (page vectors from the local embedder), each dev question's
 * vector is asked once, and the hybrid ranking is recomputed for each point of
 * a grid of fusion parameters (k, the dense list's weight, its candidates).
 * Prints recall@5 and MRR@10 over all dev questions per point, best first,
 * and the current FUSION's line. Test-split questions are never read.
 * Usage: npx tsx eval/tune-fusion.ts
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildKeywordIndex, FUSION, searchLoaded, type Fusion } from '../core/retrieval/embedded-store.js';
import { EmbeddedDocIndex, indexDocs } from '../core/retrieval/index.js';
import { loadSnapshot } from '../core/retrieval/snapshot-file.js';
import { PAGE_SIZE } from './evaluate.js';
import { firstRelevantRank, rankedPages, scoreRanks } from './metrics.js';
import { readQuestions } from './questions.js';
import { DEFAULT_SETS, localEmbedding } from './sets.js';

const DOMAIN = 'tune';

interface DevCase {
  run: (fusion: Fusion) => number;
}

async function main(): Promise<void> {
  const local = await localEmbedding();
  if (!local) throw new Error('the fusion tuner needs the local embedder');
  const cases: DevCase[] = [];
  try {
    for (const set of DEFAULT_SETS) {
      const work = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-tune-'));
      try {
        await indexDocs(new EmbeddedDocIndex(work), DOMAIN, set.docs, { includeHidden: false, embedding: local.embedding });
        const { snapshot } = await loadSnapshot(path.join(work, `${DOMAIN}.json`));
        const indexes = buildKeywordIndex(snapshot);
        for (const file of Object.values(set.questions)) {
          for (const question of (await readQuestions(file)).filter((q) => q.split === 'dev')) {
            const [vector] = await local.embedding.embedder.embed([question.q], 'query');
            cases.push({
              run: (fusion) => {
                const hits = searchLoaded(snapshot, indexes, { query: question.q, pageSize: PAGE_SIZE }, vector, 'hybrid', fusion);
                return firstRelevantRank(rankedPages(hits.map((h) => h.path)), question.pages, PAGE_SIZE);
              },
            });
          }
        }
      } finally {
        await fs.rm(work, { recursive: true, force: true });
      }
    }
  } finally {
    await local.server.stop();
  }
  const rows: Array<{ fusion: Fusion; recall: number; mrr: number }> = [];
  for (const k of [5, 10, 20, 30, 60])
    for (const denseWeight of [0.5, 0.75, 1, 1.25, 1.5, 2])
      for (const denseCandidates of [5, 8, 10, 12, 15, 20, 30, 50]) {
        const fusion = { ...FUSION, k, denseWeight, denseCandidates };
        const s = scoreRanks(cases.map((c) => c.run(fusion)));
        rows.push({ fusion, recall: s.recallAt5, mrr: s.mrrAt10 });
      }
  rows.sort((a, b) => b.recall - a.recall || b.mrr - a.mrr);
  const line = (r: (typeof rows)[number]) =>
    `k ${r.fusion.k}, dense weight ${r.fusion.denseWeight}, dense candidates ${r.fusion.denseCandidates}: recall@5 ${r.recall.toFixed(3)}, MRR@10 ${r.mrr.toFixed(3)}`;
  const current = scoreRanks(cases.map((c) => c.run(FUSION)));
  console.log(`${cases.length} dev questions; current FUSION: recall@5 ${current.recallAt5.toFixed(3)}, MRR@10 ${current.mrrAt10.toFixed(3)}`);
  for (const r of rows.slice(0, 25)) console.log(line(r));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
