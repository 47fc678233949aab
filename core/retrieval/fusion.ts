/** The constant of reciprocal rank fusion (Cormack et al.); damps the head of each list. */
export const RRF_K = 60;

/**
 * Fuses ranked lists of ids by reciprocal rank: each list gives 1/(k + rank).
 * Scores are divided by the best possible sum, so a hit first in every list scores 1.
 */
export function reciprocalRankFusion<T>(lists: T[][], k = RRF_K): Map<T, number> {
  const fused = new Map<T, number>();
  const best = lists.length / (k + 1);
  for (const list of lists) {
    list.forEach((id, rank) => fused.set(id, (fused.get(id) ?? 0) + 1 / (k + rank + 1) / best));
  }
  return fused;
}
