/**
 * Answer eval: does the extractive answer a reader gets state the fact asked for, and decline a
 * question the docs do not answer? Each question is
 * asked through the API's answer service over keyword retrieval (or, with `--embedder local`, over
 * hybrid retrieval through the bundled local embedder, as `npm start` ranks by default), and the
 * answer is checked for the question's expected phrases (or, for an unanswerable one, for saying
 * the docs do not cover it), beside naive baselines computed in the same run. A report, not a test: it exits 0 whatever the scores (1 when a hybrid run's query
 * embedder did not answer in time). With `--record` it rewrites eval/answer-figures.json, the
 * keyword figures the CI test must not fall below; it refuses `--embedder local`.
 * Usage:
 *   npm run eval:answers [-- --embedder none|local] [-- --record]
 *   npm run eval:answers -- --corpus DIR --questions FILE [--language de|fr] [--embedder none|local] [--record]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { answerFiguresOf, recordAnswerFigures, type AnswerFigures } from './answer-figures.js';
import { answerEvalOptions } from './answer-options.js';
import { readAnswerQuestions } from './answer-questions.js';
import { formatAnswerRun } from './answer-report.js';
import { evaluateAnswers, type HybridRetrieval } from './answer-run.js';
import { localEmbedding } from './sets.js';

async function main(): Promise<void> {
  const o = answerEvalOptions(process.argv.slice(2));
  const local = o.embedder === 'local' ? await localEmbedding() : undefined;
  if (o.embedder === 'local' && !local) throw new Error('--embedder local needs the bundled embedder: run bash infra/setup.sh');
  const hybrid: HybridRetrieval | undefined = local && { port: local.port, cache: local.embedding.cache };
  const recorded: AnswerFigures = {};
  let fellBack = 0;
  try {
    for (const set of o.sets) {
      const questions = await readAnswerQuestions(set.questions);
      const work = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-answer-eval-'));
      try {
        const outcomes = await evaluateAnswers(set.docs, questions, work, set.language, hybrid);
        console.log(formatAnswerRun(set.name, outcomes, o.embedder));
        console.log('');
        recorded[set.name] = answerFiguresOf(outcomes);
        fellBack += outcomes.filter((a) => a.retrieval === 'keyword-fallback').length;
      } finally {
        await fs.rm(work, { recursive: true, force: true });
      }
    }
  } finally {
    await local?.server.stop();
  }
  // Figures over a mix of hybrid and keyword ranking measure neither.
  if (fellBack > 0) throw new Error(`${fellBack} answers fell back to keyword ranking (the embedder did not answer in time): these are not hybrid figures`);
  if (o.record) {
    await recordAnswerFigures(recorded);
    console.log(`Recorded the answer figures of ${Object.keys(recorded).join(', ')} in eval/answer-figures.json.`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
