import path from 'node:path';
import { DEFAULT_ANSWER_SETS, type AnswerSet } from './answer-sets.js';
import { evalArgs, type EvalEmbedder } from './cli-options.js';

/** What the answer eval retrieves with: keyword only (`none`, what CI runs and records) or hybrid through the bundled local embedder. */
export type AnswerEmbedder = EvalEmbedder;

export interface AnswerEvalOptions {
  sets: AnswerSet[];
  record: boolean;
  embedder: AnswerEmbedder;
}

/** `npm run eval:answers`'s arguments (see `evalArgs`; `--english` is the retrieval eval's alone). */
export function answerEvalOptions(argv: string[]): AnswerEvalOptions {
  const { embedder, record, english, single } = evalArgs(argv, 'none');
  if (english) throw new Error('--english is the retrieval eval\'s (npm run eval): the answer eval asks each set in its own language');
  // The recorded figures are keyword retrieval's, which CI measures again; it cannot run the embedder.
  if (record && embedder === 'local') throw new Error('--record records keyword retrieval\'s figures, which CI checks: it does not go with --embedder local');
  if (!single) return { sets: DEFAULT_ANSWER_SETS, record, embedder };
  return { sets: [{ name: path.basename(single.questions, '.json'), ...single }], record, embedder };
}

/** What a report says the answers were retrieved with. */
export function retrievalLabel(embedder: AnswerEmbedder): string {
  return embedder === 'local' ? 'hybrid retrieval (local embedder)' : 'keyword retrieval';
}
