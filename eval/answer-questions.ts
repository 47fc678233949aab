import fs from 'node:fs/promises';
import * as v from 'valibot';
import { normalisePagePath } from '../core/retrieval/index.js';
import type { ExpectedFact } from './answer-facts.js';
import { splitOf, type Split } from './questions.js';

const text = v.pipe(v.string(), v.trim(), v.minLength(1));

/** One answerable entry of an answer question file; see README (Answer eval). */
const AnswerableEntry = v.strictObject({
  q: text,
  /** Pages that answer it; citing any of them counts. */
  pages: v.pipe(v.array(text), v.minLength(1)),
  /** Alternatives, any of which states the fact: a phrase, or phrases that must all appear. */
  expect: v.pipe(v.array(v.union([text, v.pipe(v.array(text), v.minLength(1))])), v.minLength(1)),
  tags: v.optional(v.array(text), []),
});

/** A question the corpus does not answer: the answer should say the docs do not cover it, so it has no pages nor fact. */
const UnanswerableEntry = v.strictObject({
  q: text,
  unanswerable: v.literal(true),
  tags: v.optional(v.array(text), []),
});

export interface AnswerQuestion {
  q: string;
  /** Empty for an unanswerable question. */
  pages: string[];
  /** Empty for an unanswerable question: no answer states it. */
  expect: ExpectedFact;
  /** The docs do not answer it: a good answer declines it. */
  unanswerable: boolean;
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
  const parsed = v.safeParse(v.array(v.union([AnswerableEntry, UnanswerableEntry])), raw);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${issue.path?.map((p) => String(p.key)).join('.') ?? '(root)'}: ${issue.message}`);
    throw new Error(`answer question file ${file} is not an array of {q, pages, expect[, tags]} or {q, unanswerable: true[, tags]}: ${problems.join('; ')}`);
  }
  return parsed.output.map((entry) =>
    'unanswerable' in entry
      ? { q: entry.q, pages: [], expect: [], unanswerable: true, tags: entry.tags, split: splitOf(entry.q) }
      : { ...entry, pages: entry.pages.map(normalisePagePath), unanswerable: false, split: splitOf(entry.q) },
  );
}
