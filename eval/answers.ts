/**
 * Answer eval: does the extractive answer a reader gets state the fact asked for? Each question is
 * asked through the API's answer service over keyword retrieval, and the answer is checked for
 * the question's expected phrases, beside a naive baseline computed in the same run. A report,
 * not a test: it exits 0 whatever the scores. With `--record` it rewrites eval/answer-figures.json,
 * the figures the CI test must not fall below.
 * Usage:
 *   npm run eval:answers [-- --record]
 *   npm run eval:answers -- --corpus DIR --questions FILE [--language de|fr] [--record]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { answerFiguresOf, recordAnswerFigures, type AnswerFigures } from './answer-figures.js';
import { readAnswerQuestions } from './answer-questions.js';
import { formatAnswerRun } from './answer-report.js';
import { evaluateAnswers } from './answer-run.js';
import { DEFAULT_ANSWER_SETS, type AnswerSet } from './answer-sets.js';

function options(argv: string[]): { sets: AnswerSet[]; record: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: { corpus: { type: 'string' }, questions: { type: 'string' }, language: { type: 'string' }, record: { type: 'boolean', default: false } },
    strict: true,
  });
  if (values.corpus === undefined && values.questions === undefined) return { sets: DEFAULT_ANSWER_SETS, record: values.record };
  if (values.corpus === undefined || values.questions === undefined) throw new Error('give both --corpus DIR and --questions FILE');
  const set = { name: path.basename(values.questions, '.json'), docs: path.resolve(values.corpus), questions: path.resolve(values.questions), language: values.language };
  return { sets: [set], record: values.record };
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const recorded: AnswerFigures = {};
  for (const set of o.sets) {
    const questions = await readAnswerQuestions(set.questions);
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-answer-eval-'));
    try {
      const outcomes = await evaluateAnswers(set.docs, questions, work, set.language);
      console.log(formatAnswerRun(set.name, outcomes));
      console.log('');
      recorded[set.name] = answerFiguresOf(outcomes);
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  }
  if (o.record) {
    await recordAnswerFigures(recorded);
    console.log(`Recorded the answer figures of ${Object.keys(recorded).join(', ')} in eval/answer-figures.json.`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
