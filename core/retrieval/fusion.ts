/** The constant of reciprocal rank fusion (Cormack et al.); damps the head of each list. */
export const RRF_K = 60;

/**
 * Fuses ranked lists of ids by reciprocal rank: each list gives
 * weight/(k + rank). Scores are divided by the best possible sum, so a hit
 * first in every list scores 1.
 */
export function reciprocalRankFusion<T>(lists: T[][], k = RRF_K, weights: number[] = lists.map(() => 1)): Map<T, number> {
  const fused = new Map<T, number>();
  const best = weights.reduce((sum, w) => sum + w, 0) / (k + 1);
  lists.forEach((list, l) => {
    const weight = weights[l] ?? 1;
    list.forEach((id, rank) => fused.set(id, (fused.get(id) ?? 0) + weight / (k + rank + 1) / best));
  });
  return fused;
}
