import path from 'node:path';
import * as v from 'valibot';
import { readFigureFile, writeFigureFile } from './figure-file.js';
import { ENGINES, scoreSplits, type Engine, type QuestionOutcome } from './evaluate.js';
import type { Split } from './questions.js';

/** The last recorded figures, per question set, split and engine: `npm run eval -- --record` rewrites them. */
export const FIGURES_FILE = path.join(__dirname, 'figures.json');

export interface Figure {
  questions: number;
  recallAt5: number;
  mrrAt10: number;
}

export type SetFigures = Partial<Record<Split, Partial<Record<Engine, Figure>>>>;
export type Figures = Record<string, SetFigures>;

const round = (n: number) => Math.round(n * 1e4) / 1e4;

/** One question set's figures from its outcomes. */
export function figuresOf(outcomes: QuestionOutcome[]): SetFigures {
  const figures: SetFigures = {};
  for (const { split, scores } of scoreSplits(outcomes)) {
    const bySplit: Partial<Record<Engine, Figure>> = {};
    for (const engine of ENGINES) {
      const s = scores[engine];
      if (s) bySplit[engine] = { questions: s.questions, recallAt5: round(s.recallAt5), mrrAt10: round(s.mrrAt10) };
    }
    figures[split] = bySplit;
  }
  return figures;
}

const FigureSchema = v.object({ questions: v.number(), recallAt5: v.number(), mrrAt10: v.number() });
const SplitSchema = v.partial(v.object({ keyword: FigureSchema, hybrid: FigureSchema, dense: FigureSchema, bm25: FigureSchema }));
const SetFiguresSchema = v.partial(v.object({ dev: SplitSchema, test: SplitSchema }));

export function readFigures(file = FIGURES_FILE): Promise<Figures> {
  return readFigureFile(file, SetFiguresSchema);
}

/** Replaces the figures of the sets given, keeping the others. */
export function recordFigures(sets: Figures, file = FIGURES_FILE): Promise<void> {
  return writeFigureFile(file, SetFiguresSchema, sets);
}

/**
 * What fell below the recorded figures: one line per set, split, engine and
 * metric. `slack` forgives that much (a vector engine's last digits move with
 * the CPU's arithmetic); keyword and BM25 rankings are exact.
 */
export function regressions(recorded: SetFigures, current: SetFigures, slack: Partial<Record<Engine, number>> = {}): string[] {
  const found: string[] = [];
  for (const split of ['dev', 'test'] as const) {
    for (const engine of ENGINES) {
      const before = recorded[split]?.[engine];
      const now = current[split]?.[engine];
      if (!before || !now) continue;
      for (const metric of ['recallAt5', 'mrrAt10'] as const) {
        if (now[metric] + (slack[engine] ?? 0) + 1e-9 < before[metric]) {
          found.push(`${split} ${engine} ${metric}: ${now[metric]} < recorded ${before[metric]}`);
        }
      }
    }
  }
  return found;
}
