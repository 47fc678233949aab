import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_ANSWER_SETS, type AnswerSet } from './answer-sets.js';

/** What the answer eval retrieves with: keyword only (`none`, what CI runs and records) or hybrid through the bundled local embedder. */
export type AnswerEmbedder = 'none' | 'local';

export interface AnswerEvalOptions {
  sets: AnswerSet[];
  record: boolean;
  embedder: AnswerEmbedder;
}

/** `npm run eval:answers`'s arguments. */
export function answerEvalOptions(argv: string[]): AnswerEvalOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      corpus: { type: 'string' },
      questions: { type: 'string' },
      language: { type: 'string' },
      embedder: { type: 'string', default: 'none' },
      record: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const embedder = values.embedder;
  if (embedder !== 'none' && embedder !== 'local') throw new Error('--embedder must be none or local');
  // The recorded figures are keyword retrieval's, which CI measures again; it cannot run the embedder.
  if (values.record && embedder === 'local') throw new Error('--record records keyword retrieval\'s figures, which CI checks: it does not go with --embedder local');
  if (values.corpus === undefined && values.questions === undefined) return { sets: DEFAULT_ANSWER_SETS, record: values.record, embedder };
  if (values.corpus === undefined || values.questions === undefined) throw new Error('give both --corpus DIR and --questions FILE');
  const set = { name: path.basename(values.questions, '.json'), docs: path.resolve(values.corpus), questions: path.resolve(values.questions), language: values.language };
  return { sets: [set], record: values.record, embedder };
}

/** What a report says the answers were retrieved with. */
export function retrievalLabel(embedder: AnswerEmbedder): string {
  return embedder === 'local' ? 'hybrid retrieval (local embedder)' : 'keyword retrieval';
}
