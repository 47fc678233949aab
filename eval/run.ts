/**
 * Retrieval eval: page-level recall@5 and MRR@10 of Quire's search endpoint
 * (keyword-only, `pageSize: 10`) beside plain BM25 over whole pages, on the
 * dev and test splits of each question set. A report, not a test: it exits 0
 * whatever the scores. Usage:
 *   npm run eval
 *   npm run eval -- --corpus DIR --questions FILE
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { evaluateCorpus } from './evaluate.js';
import { readQuestions } from './questions.js';
import { formatRun } from './report.js';

interface QuestionSet {
  name: string;
  docs: string;
  questions: string;
}

const ROOT = path.resolve(__dirname, '..');
const DEFAULT_SETS: QuestionSet[] = [
  { name: 'orrery', docs: path.join(__dirname, 'corpora', 'orrery'), questions: path.join(__dirname, 'questions', 'orrery.json') },
  { name: 'example-docs', docs: path.join(ROOT, 'infra', 'example-docs'), questions: path.join(__dirname, 'questions', 'example-docs.json') },
];

function chosenSets(argv: string[]): QuestionSet[] {
  const { values } = parseArgs({ args: argv, options: { corpus: { type: 'string' }, questions: { type: 'string' } }, strict: true });
  if (values.corpus === undefined && values.questions === undefined) return DEFAULT_SETS;
  if (values.corpus === undefined || values.questions === undefined) throw new Error('give both --corpus DIR and --questions FILE');
  const docs = path.resolve(values.corpus);
  return [{ name: path.basename(docs), docs, questions: path.resolve(values.questions) }];
}

async function main(): Promise<void> {
  const sets = chosenSets(process.argv.slice(2));
  for (const set of sets) {
    const questions = await readQuestions(set.questions);
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-eval-'));
    try {
      console.log(formatRun(set.name, await evaluateCorpus(set.docs, questions, work)));
      console.log('');
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
