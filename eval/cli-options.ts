import path from 'node:path';
import { parseArgs } from 'node:util';

/** What an eval retrieves with: keyword only (`none`) or hybrid through the bundled local embedder. */
export type EvalEmbedder = 'none' | 'local';

/** The arguments both eval commands take: one corpus and its questions, or the default sets. */
export interface EvalArgs {
  embedder: EvalEmbedder;
  record: boolean;
  /** `--english` (the retrieval eval's): every set indexed and asked as English. */
  english: boolean;
  /** The one set `--corpus` and `--questions` name (its language from `--language`); undefined: the default sets. */
  single: { docs: string; questions: string; language: string | undefined } | undefined;
}

const isEmbedder = (value: string): value is EvalEmbedder => value === 'none' || value === 'local';

/** Parses an eval command's arguments, `--embedder` defaulting to `embedder`; a flag it does not know, a bad embedder or half a set is an error. */
export function evalArgs(argv: string[], embedder: EvalEmbedder): EvalArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      corpus: { type: 'string' },
      questions: { type: 'string' },
      language: { type: 'string' },
      english: { type: 'boolean', default: false },
      embedder: { type: 'string', default: embedder },
      record: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const chosen = values.embedder;
  if (!isEmbedder(chosen)) throw new Error('--embedder must be none or local');
  const base = { embedder: chosen, record: values.record, english: values.english };
  if (values.corpus === undefined && values.questions === undefined) return { ...base, single: undefined };
  if (values.corpus === undefined || values.questions === undefined) throw new Error('give both --corpus DIR and --questions FILE');
  return { ...base, single: { docs: path.resolve(values.corpus), questions: path.resolve(values.questions), language: values.language } };
}
