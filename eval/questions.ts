import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import * as v from 'valibot';
import { normalisePagePath } from '../core/retrieval/index.js';

export type Split = 'dev' | 'test';

const text = v.pipe(v.string(), v.trim(), v.minLength(1));

/** One entry of a question file; see README (Retrieval eval) for the format. */
const QuestionEntry = v.strictObject({
  q: text,
  /** Page paths that answer it (`/guides/rollouts`, `guides/rollouts.mdx`); any of them counts. */
  pages: v.pipe(v.array(text), v.minLength(1)),
  /** Free labels (`typo`, `root-page`…): the report breaks the dev split down by them. */
  tags: v.optional(v.array(text), []),
  /** Overrides the hash rule; for files whose split was fixed elsewhere. */
  split: v.optional(v.picklist(['dev', 'test'])),
});

const QuestionFile = v.array(QuestionEntry);

export interface Question {
  q: string;
  pages: string[];
  tags: string[];
  split: Split;
}

/**
 * The split of a question, from a hash of its text: fixed before anything is
 * measured and independent of how it scores.
 */
export function splitOf(question: string): Split {
  const digest = createHash('sha256').update(question.trim()).digest();
  return (digest[0]! & 1) === 0 ? 'dev' : 'test';
}

/** Reads and checks a question file; the error names the file and each broken entry. */
export async function readQuestions(file: string): Promise<Question[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read question file ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = v.safeParse(QuestionFile, raw);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${issue.path?.map((p) => String(p.key)).join('.') ?? '(root)'}: ${issue.message}`);
    throw new Error(`question file ${file} is not an array of {q, pages[, tags, split]}: ${problems.join('; ')}`);
  }
  return parsed.output.map((entry) => ({
    q: entry.q,
    pages: entry.pages.map(normalisePagePath),
    tags: entry.tags,
    split: entry.split ?? splitOf(entry.q),
  }));
}
