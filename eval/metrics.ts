/** Page-level ranking metrics over search results. */

/** Distinct pages in the order of their first (best) result: a page counts once. */
export function rankedPages(resultPaths: string[]): string[] {
  return [...new Set(resultPaths)];
}

/** 1-based rank of the first page that answers, within the first `depth` pages; 0 when none does. */
export function firstRelevantRank(ranked: string[], relevant: string[], depth: number): number {
  const at = ranked.slice(0, depth).findIndex((page) => relevant.includes(page));
  return at + 1;
}

export interface Scores {
  questions: number;
  /** Share of questions with an answering page among the first 5 pages. */
  recallAt5: number;
  /** Mean of 1/rank of the first answering page within the first 10 pages (0 beyond). */
  mrrAt10: number;
}

/** Aggregates the per-question ranks of the first answering page (0: not found). */
export function scoreRanks(ranks: number[]): Scores {
  if (ranks.length === 0) return { questions: 0, recallAt5: 0, mrrAt10: 0 };
  const hits = ranks.filter((r) => r >= 1 && r <= 5).length;
  const rr = ranks.reduce((sum, r) => sum + (r >= 1 && r <= 10 ? 1 / r : 0), 0);
  return { questions: ranks.length, recallAt5: hits / ranks.length, mrrAt10: rr / ranks.length };
}
