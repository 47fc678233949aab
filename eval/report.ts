import type { CorpusRun, QuestionOutcome } from './evaluate.js';
import { scoreSplits } from './evaluate.js';
import { scoreRanks } from './metrics.js';

const fixed = (n: number) => n.toFixed(3);
const pad = (cells: string[], widths: number[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();

/**
 * The report of one corpus: the score table for both splits, then, for the
 * dev split only, a breakdown by tag and Quire's misses. The test split shows
 * aggregates alone so that nobody tunes on its questions.
 */
export function formatRun(name: string, run: CorpusRun): string {
  const lines: string[] = [];
  const { quireIndex } = run;
  lines.push(
    `${name}: Quire indexed ${quireIndex.pages} pages (${quireIndex.chunks} chunks, ${quireIndex.seconds} s); ` +
      `the BM25 baseline ranks all ${run.baselinePages} page files`,
  );
  for (const broken of quireIndex.broken) lines.push(`  broken page: ${broken}`);
  const widths = [6, 10, 24, 9, 7];
  lines.push('', pad(['split', 'questions', 'engine', 'recall@5', 'MRR@10'], widths));
  for (const { split, quire, bm25 } of scoreSplits(run.outcomes)) {
    lines.push(pad([split, String(quire.questions), 'Quire (search endpoint)', fixed(quire.recallAt5), fixed(quire.mrrAt10)], widths));
    lines.push(pad(['', '', 'BM25, whole pages', fixed(bm25.recallAt5), fixed(bm25.mrrAt10)], widths));
  }
  const dev = run.outcomes.filter((o) => o.question.split === 'dev');
  const tags = [...new Set(dev.flatMap((o) => o.question.tags))].sort();
  if (tags.length > 0) {
    lines.push('', 'dev split by tag (Quire recall@5 / BM25 recall@5):');
    for (const tag of tags) {
      const tagged = dev.filter((o) => o.question.tags.includes(tag));
      const quire = scoreRanks(tagged.map((o) => o.quire.rank));
      const bm25 = scoreRanks(tagged.map((o) => o.bm25.rank));
      lines.push(`  ${tag.padEnd(18)} ${String(tagged.length).padStart(3)}  ${fixed(quire.recallAt5)} / ${fixed(bm25.recallAt5)}`);
    }
  }
  const misses = dev.filter((o) => o.quire.rank === 0 || o.quire.rank > 5);
  if (misses.length > 0) {
    lines.push('', `dev questions Quire misses in the top 5 (${misses.length}):`);
    for (const miss of misses) lines.push(describeMiss(miss));
  }
  return lines.join('\n');
}

function describeMiss({ question, quire, bm25 }: QuestionOutcome): string {
  const got = quire.pages.slice(0, 3).join(', ') || 'nothing';
  const rank = quire.rank > 0 ? `rank ${quire.rank}` : 'not in top 10';
  return `  "${question.q}" → wanted ${question.pages.join(' or ')} (${rank}; BM25 rank ${bm25.rank || '-'}), got ${got}`;
}
