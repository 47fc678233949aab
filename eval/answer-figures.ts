import path from 'node:path';
import * as v from 'valibot';
import { scoreAnswers } from './answer-report.js';
import type { AnswerOutcome } from './answer-run.js';
import { readFigureFile, writeFigureFile } from './figure-file.js';
import type { Split } from './questions.js';

/** The last recorded answer figures, per question set and split: `npm run eval:answers -- --record` rewrites them. */
export const ANSWER_FIGURES_FILE = path.join(__dirname, 'answer-figures.json');

export interface AnswerFigure {
  questions: number;
  statesFact: number;
  citesPage: number;
  refused: number;
}

export type AnswerSetFigures = Partial<Record<Split, AnswerFigure>>;
export type AnswerFigures = Record<string, AnswerSetFigures>;

const round = (n: number) => Math.round(n * 1e4) / 1e4;

/** One answer set's figures from its outcomes. */
export function answerFiguresOf(outcomes: AnswerOutcome[]): AnswerSetFigures {
  const figures: AnswerSetFigures = {};
  for (const { split, scores: s } of scoreAnswers(outcomes)) {
    figures[split] = { questions: s.questions, statesFact: round(s.statesFact), citesPage: round(s.citesPage), refused: round(s.refused) };
  }
  return figures;
}

const AnswerFigureSchema = v.object({ questions: v.number(), statesFact: v.number(), citesPage: v.number(), refused: v.number() });
const AnswerSetFiguresSchema = v.partial(v.object({ dev: AnswerFigureSchema, test: AnswerFigureSchema }));

export function readAnswerFigures(file = ANSWER_FIGURES_FILE): Promise<AnswerFigures> {
  return readFigureFile(file, AnswerSetFiguresSchema);
}

/** Replaces the figures of the sets given, keeping the others. */
export function recordAnswerFigures(sets: AnswerFigures, file = ANSWER_FIGURES_FILE): Promise<void> {
  return writeFigureFile(file, AnswerSetFiguresSchema, sets);
}

/**
 * What is worse than the recorded figures: one line per split and figure. Stating the fact and citing
 * a page must not fall, refusing must not rise. No slack: keyword retrieval and the extractive answer are exact.
 */
export function answerRegressions(recorded: AnswerSetFigures, current: AnswerSetFigures): string[] {
  const found: string[] = [];
  for (const split of ['dev', 'test'] as const) {
    const before = recorded[split];
    const now = current[split];
    if (!before || !now) continue;
    if (now.questions !== before.questions) found.push(`${split}: ${now.questions} questions, recorded over ${before.questions} (record again)`);
    for (const metric of ['statesFact', 'citesPage'] as const) {
      if (now[metric] + 1e-9 < before[metric]) found.push(`${split} ${metric}: ${now[metric]} < recorded ${before[metric]}`);
    }
    if (now.refused > before.refused + 1e-9) found.push(`${split} refused: ${now.refused} > recorded ${before.refused}`);
  }
  return found;
}
