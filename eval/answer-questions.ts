import fs from 'node:fs/promises';
import * as v from 'valibot';
import { normalisePagePath } from '../core/retrieval/index.js';
import type { ExpectedFact } from './answer-facts.js';
import { splitOf, type Split } from './questions.js';

const text = v.pipe(v.string(), v.trim(), v.minLength(1));

/** One entry of an answer question file; see README (Answer eval). */
const AnswerQuestionEntry = v.strictObject({
  q: text,
  /** Pages that answer it; citing any of them counts. */
  pages: v.pipe(v.array(text), v.minLength(1)),
  /** Alternatives, any of which states the fact: a phrase, or phrases that must all appear. */
  expect: v.pipe(v.array(v.union([text, v.pipe(v.array(text), v.minLength(1))])), v.minLength(1)),
  tags: v.optional(v.array(text), []),
});

export interface AnswerQuestion {
  q: string;
  pages: string[];
  expect: ExpectedFact;
  tags: string[];
  split: Split;
}

/** Reads and checks an answer question file; the split of each question is the retrieval eval's hash rule. */
export async function readAnswerQuestions(file: string): Promise<AnswerQuestion[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read answer question file ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = v.safeParse(v.array(AnswerQuestionEntry), raw);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${issue.path?.map((p) => String(p.key)).join('.') ?? '(root)'}: ${issue.message}`);
    throw new Error(`answer question file ${file} is not an array of {q, pages, expect[, tags]}: ${problems.join('; ')}`);
  }
  return parsed.output.map((entry) => ({ ...entry, pages: entry.pages.map(normalisePagePath), split: splitOf(entry.q) }));
}
