import type { WholePage } from './corpus-pages.js';

/** Standard Okapi BM25 parameters. */
export const K1 = 1.2;
export const B = 0.75;

/** Lower-cased runs of letters and digits; no stemming, no stop words. */
export function simpleTokens(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);
}

export interface RankedPage {
  path: string;
  score: number;
}

/**
 * Plain BM25 over whole pages (title + body), the baseline Quire is measured
 * against. IDF is the non-negative form ln(1 + (N − n + 0.5) / (n + 0.5)).
 */
export class Bm25PageIndex {
  private readonly docs: Array<{ path: string; length: number; tf: Map<string, number> }>;
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(pages: WholePage[]) {
    this.docs = pages.map((page) => {
      const tf = new Map<string, number>();
      const tokens = simpleTokens(`${page.title}\n${page.body}`);
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      return { path: page.path, length: tokens.length, tf };
    });
    this.avgLength = this.docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, this.docs.length);
  }

  /** How many pages it ranks. */
  get size(): number {
    return this.docs.length;
  }

  /** IDF of a term over the pages. */
  idf(term: string): number {
    const n = this.df.get(term) ?? 0;
    return Math.log(1 + (this.docs.length - n + 0.5) / (n + 0.5));
  }

  /** Pages with a positive score, best first (ties by path); each distinct query term counts once. */
  search(query: string, limit: number): RankedPage[] {
    const terms = [...new Set(simpleTokens(query))].filter((t) => this.df.has(t));
    const ranked: RankedPage[] = [];
    for (const doc of this.docs) {
      let score = 0;
      for (const term of terms) {
        const f = doc.tf.get(term);
        if (!f) continue;
        score += (this.idf(term) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * doc.length) / this.avgLength));
      }
      if (score > 0) ranked.push({ path: doc.path, score });
    }
    ranked.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
    return ranked.slice(0, limit);
  }
}
