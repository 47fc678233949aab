/**
 * Answer eval: does the extractive answer a reader gets state the fact asked for? Each question is
 * asked through the API's answer service over keyword retrieval, and the answer is checked for
 * the question's expected phrases, beside a naive baseline computed in the same run. A report,
 * not a test: it exits 0 whatever the scores.
 * Usage:
 *   npm run eval:answers
 *   npm run eval:answers -- --corpus DIR --questions FILE [--language de|fr]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readAnswerQuestions } from './answer-questions.js';
import { formatAnswerRun } from './answer-report.js';
import { evaluateAnswers } from './answer-run.js';

interface AnswerSet {
  name: string;
  docs: string;
  questions: string;
  /** The site's language, as a domain's; absent: English. */
  language?: string | undefined;
}

const CORPORA = path.join(__dirname, 'corpora');
const QUESTIONS = path.join(__dirname, 'questions');
const DEFAULT_SETS: AnswerSet[] = [
  { name: 'orrery-answers', docs: path.join(CORPORA, 'orrery'), questions: path.join(QUESTIONS, 'orrery-answers.json') },
  { name: 'speicherwerk-answers', docs: path.join(CORPORA, 'speicherwerk'), questions: path.join(QUESTIONS, 'speicherwerk-answers.json'), language: 'de' },
  { name: 'facturo-answers', docs: path.join(CORPORA, 'facturo'), questions: path.join(QUESTIONS, 'facturo-answers.json'), language: 'fr' },
];

function setsOf(argv: string[]): AnswerSet[] {
  const { values } = parseArgs({ args: argv, options: { corpus: { type: 'string' }, questions: { type: 'string' }, language: { type: 'string' } }, strict: true });
  if (values.corpus === undefined && values.questions === undefined) return DEFAULT_SETS;
  if (values.corpus === undefined || values.questions === undefined) throw new Error('give both --corpus DIR and --questions FILE');
  return [{ name: path.basename(values.questions, '.json'), docs: path.resolve(values.corpus), questions: path.resolve(values.questions), language: values.language }];
}

async function main(): Promise<void> {
  for (const set of setsOf(process.argv.slice(2))) {
    const questions = await readAnswerQuestions(set.questions);
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-answer-eval-'));
    try {
      console.log(formatAnswerRun(set.name, await evaluateAnswers(set.docs, questions, work, set.language)));
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
