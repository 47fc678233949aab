import path from 'node:path';
import * as v from 'valibot';
import { scoreAnswers } from './answer-report.js';
import type { AnswerOutcome } from './answer-run.js';
import { readFigureFile, writeFigureFile } from './figure-file.js';
import type { Split } from './questions.js';

/** The last recorded answer figures, per question set and split: `npm run eval:answers -- --record` rewrites them. */
export const ANSWER_FIGURES_FILE = path.join(__dirname, 'answer-figures.json');

export interface AnswerFigure {
  /** Answerable questions, over which the next three are shares (`refused`: false refusals). */
  questions: number;
  statesFact: number;
  citesPage: number;
  refused: number;
  /** Questions the docs do not answer, and the share of them the answer declines. */
  unanswerable: number;
  declines: number;
}

export type AnswerSetFigures = Partial<Record<Split, AnswerFigure>>;
export type AnswerFigures = Record<string, AnswerSetFigures>;

const round = (n: number) => Math.round(n * 1e4) / 1e4;

/** One answer set's figures from its outcomes. */
export function answerFiguresOf(outcomes: AnswerOutcome[]): AnswerSetFigures {
  const figures: AnswerSetFigures = {};
  for (const { split, scores: s } of scoreAnswers(outcomes)) {
    figures[split] = {
      questions: s.questions,
      statesFact: round(s.statesFact),
      citesPage: round(s.citesPage),
      refused: round(s.refused),
      unanswerable: s.unanswerable,
      declines: round(s.declines),
    };
  }
  return figures;
}

/** A record from before the question files held unanswerable questions reads as holding none. */
const AnswerFigureSchema = v.object({
  questions: v.number(),
  statesFact: v.number(),
  citesPage: v.number(),
  refused: v.number(),
  unanswerable: v.optional(v.number(), 0),
  declines: v.optional(v.number(), 0),
});
const AnswerSetFiguresSchema = v.partial(v.object({ dev: AnswerFigureSchema, test: AnswerFigureSchema }));

export function readAnswerFigures(file = ANSWER_FIGURES_FILE): Promise<AnswerFigures> {
  return readFigureFile(file, AnswerSetFiguresSchema);
}

/** Replaces the figures of the sets given, keeping the others. */
export function recordAnswerFigures(sets: AnswerFigures, file = ANSWER_FIGURES_FILE): Promise<void> {
  return writeFigureFile(file, AnswerSetFiguresSchema, sets);
}

/**
 * What is worse than the recorded figures: one line per split and figure. Stating the fact, citing
 * a page and declining what the docs do not answer must not fall, refusing what they do answer must
 * not rise. No slack: keyword retrieval and the extractive answer are exact.
 */
export function answerRegressions(recorded: AnswerSetFigures, current: AnswerSetFigures): string[] {
  const found: string[] = [];
  for (const split of ['dev', 'test'] as const) {
    const before = recorded[split];
    const now = current[split];
    if (!before || !now) continue;
    if (now.questions !== before.questions) found.push(`${split}: ${now.questions} questions, recorded over ${before.questions} (record again)`);
    if (now.unanswerable !== before.unanswerable) found.push(`${split}: ${now.unanswerable} unanswerable questions, recorded over ${before.unanswerable} (record again)`);
    for (const metric of ['statesFact', 'citesPage', 'declines'] as const) {
      if (now[metric] + 1e-9 < before[metric]) found.push(`${split} ${metric}: ${now[metric]} < recorded ${before[metric]}`);
    }
    if (now.refused > before.refused + 1e-9) found.push(`${split} refused: ${now.refused} > recorded ${before.refused}`);
  }
  return found;
}
