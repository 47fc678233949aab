/**
 * Retrieval eval: page-level recall@5 and MRR@10 of Quire's search endpoint
 * (keyword-only and hybrid), page vectors alone and plain BM25 over whole
 * pages, on the dev and test splits of each question set. A report, not a
 * test: it exits 0 whatever the scores. With `--record` it rewrites
 * eval/figures.json, the figures the CI-sized eval must not fall below.
 * Usage:
 *   npm run eval [-- --embedder local|none] [-- --record]
 *   npm run eval -- --corpus DIR --questions FILE [--language de]
 *   npm run eval -- --english   (every set indexed and asked as English, whatever its language)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { evalArgs } from './cli-options.js';
import { evaluateCorpus } from './evaluate.js';
import { figuresOf, recordFigures, type Figures } from './figures.js';
import { readQuestions } from './questions.js';
import { formatRun } from './report.js';
import { DEFAULT_SETS, localEmbedding } from './sets.js';

function options(argv: string[]) {
  const { embedder, record, english, single } = evalArgs(argv, 'local');
  const base = { embedder, record, english };
  if (!single) return { ...base, sets: DEFAULT_SETS };
  return { ...base, sets: [{ docs: single.docs, questions: { [path.basename(single.docs)]: single.questions }, ...(single.language ? { language: single.language } : {}) }] };
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const local = o.embedder === 'local' ? await localEmbedding() : undefined;
  const recorded: Figures = {};
  try {
    for (const set of o.sets) {
      const named = await Promise.all(Object.entries(set.questions).map(async ([name, file]) => ({ name, questions: await readQuestions(file) })));
      const work = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-eval-'));
      try {
        const language = o.english ? undefined : set.language;
        const run = await evaluateCorpus(set.docs, named.flatMap((n) => n.questions), work, local?.embedding, language);
        let from = 0;
        for (const { name, questions } of named) {
          const outcomes = run.outcomes.slice(from, (from += questions.length));
          console.log(formatRun(name, { ...run, outcomes }));
          console.log('');
          recorded[name] = figuresOf(outcomes);
        }
      } finally {
        await fs.rm(work, { recursive: true, force: true });
      }
    }
  } finally {
    await local?.server.stop();
  }
  if (o.record && o.english) throw new Error('--english measures a comparison: it does not record');
  if (o.record) {
    await recordFigures(recorded);
    console.log(`Recorded the figures of ${Object.keys(recorded).join(', ')} in eval/figures.json.`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
