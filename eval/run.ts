/**
 * Retrieval eval: page-level recall@5 and MRR@10 of Quire's search endpoint
 * (keyword-only and hybrid), page vectors alone and plain BM25 over whole
 * pages, on the dev and test splits of each question set. A report, not a
 * test: it exits 0 whatever the scores. With `--record` it rewrites
 * eval/figures.json, the figures the CI-sized eval must not fall below.
 * Usage:
 *   npm run eval [-- --embedder local|none] [-- --record]
 *   npm run eval -- --corpus DIR --questions FILE
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LOCAL_EMBEDDING_MODEL } from '../core/config.js';
import { modelEmbedder, createVectorCache, type ChunkEmbedding } from '../core/retrieval/index.js';
import { createModelPort } from '../core/model/index.js';
import { openMigratedDatabase } from '../core/db/index.js';
import { localEmbedderFiles, startLocalEmbedder, type LocalEmbedder } from '../infra/embedder.js';
import { evaluateCorpus } from './evaluate.js';
import { figuresOf, recordFigures, type Figures } from './figures.js';
import { readQuestions } from './questions.js';
import { formatRun } from './report.js';

interface CorpusSet {
  docs: string;
  /** Question set name → question file; the corpus is indexed once for all of them. */
  questions: Record<string, string>;
}

const ROOT = path.resolve(__dirname, '..');
const QUESTIONS = path.join(__dirname, 'questions');
const DEFAULT_SETS: CorpusSet[] = [
  {
    docs: path.join(__dirname, 'corpora', 'orrery'),
    questions: { orrery: path.join(QUESTIONS, 'orrery.json'), 'orrery-semantic': path.join(QUESTIONS, 'orrery-semantic.json') },
  },
  {
    docs: path.join(ROOT, 'infra', 'example-docs'),
    questions: { 'example-docs': path.join(QUESTIONS, 'example-docs.json'), 'example-docs-semantic': path.join(QUESTIONS, 'example-docs-semantic.json') },
  },
];
/** Vectors survive between runs, so a second eval embeds nothing. */
const VECTOR_CACHE = path.join(os.tmpdir(), 'quire-eval-vector-cache.db');

function options(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: { corpus: { type: 'string' }, questions: { type: 'string' }, embedder: { type: 'string', default: 'local' }, record: { type: 'boolean', default: false } },
    strict: true,
  });
  if (values.embedder !== 'local' && values.embedder !== 'none') throw new Error('--embedder must be local or none');
  if (values.corpus === undefined && values.questions === undefined) return { ...values, sets: DEFAULT_SETS };
  if (values.corpus === undefined || values.questions === undefined) throw new Error('give both --corpus DIR and --questions FILE');
  const docs = path.resolve(values.corpus);
  return { ...values, sets: [{ docs, questions: { [path.basename(docs)]: path.resolve(values.questions) } }] };
}

/** The bundled local embedder on a free port, when setup.sh installed it. */
async function localEmbedding(): Promise<{ embedding: ChunkEmbedding; server: LocalEmbedder } | undefined> {
  const files = localEmbedderFiles(ROOT);
  if (!(await fs.stat(files.binary).then(() => true, () => false))) {
    console.log('No local embedder in .tools/embedder (run bash infra/setup.sh): keyword and BM25 only.\n');
    return undefined;
  }
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const server = await startLocalEmbedder({ ...files, port, logFile: path.join(os.tmpdir(), 'quire-eval-embedder.log') });
  const settings = {
    provider: 'openai',
    baseUrl: server.baseUrl,
    apiKey: undefined,
    apiVersion: undefined,
    proxy: { http: undefined, https: undefined, noProxy: undefined },
    model: LOCAL_EMBEDDING_MODEL,
    dimensions: undefined,
    marking: 'input_type',
    queryTimeoutMs: 120_000,
  } as const;
    const embedder = modelEmbedder(settings, createModelPort(settings));
  return { embedding: { embedder, cache: createVectorCache(await openMigratedDatabase({ dialect: 'sqlite', file: VECTOR_CACHE })), batchSize: 16 }, server };
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
        const run = await evaluateCorpus(set.docs, named.flatMap((n) => n.questions), work, local?.embedding);
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
  if (o.record) {
    await recordFigures(recorded);
    console.log(`Recorded the figures of ${Object.keys(recorded).join(', ')} in eval/figures.json.`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
