import { ENGINE_NAMES, ENGINES, scoreSplits, type CorpusRun, type Engine, type QuestionOutcome } from './evaluate.js';
import { scoreRanks } from './metrics.js';

const fixed = (n: number) => n.toFixed(3);
const pad = (cells: string[], widths: number[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();

/**
 * The report of one question set: the score table of every engine on both
 * splits, then, for the dev split only, a breakdown by tag and the misses of
 * Quire's best engine. The test split shows aggregates alone so that nobody
 * tunes on its questions.
 */
export function formatRun(name: string, run: CorpusRun): string {
  const lines: string[] = [];
  const { quireIndex } = run;
  lines.push(
    `${name}: Quire indexed ${quireIndex.pages} pages (${quireIndex.chunks} chunks, ${quireIndex.vectors} page vectors, ${quireIndex.seconds} s` +
      `${run.embedder ? `, embedder ${run.embedder}` : ', no embedder'}); the BM25 baseline ranks all ${run.baselinePages} page files`,
  );
  for (const broken of quireIndex.broken) lines.push(`  broken page: ${broken}`);
  const widths = [6, 10, 20, 9, 7];
  lines.push('', pad(['split', 'questions', 'engine', 'recall@5', 'MRR@10'], widths));
  for (const { split, scores } of scoreSplits(run.outcomes)) {
    let first = true;
    for (const engine of ENGINES) {
      const s = scores[engine];
      if (!s) continue;
      lines.push(pad([first ? split : '', first ? String(s.questions) : '', ENGINE_NAMES[engine], fixed(s.recallAt5), fixed(s.mrrAt10)], widths));
      first = false;
    }
  }
  const dev = run.outcomes.filter((o) => o.question.split === 'dev');
  const shown: Engine = dev.some((o) => o.answers.hybrid) ? 'hybrid' : 'keyword';
  const tags = [...new Set(dev.flatMap((o) => o.question.tags))].sort();
  if (tags.length > 0) {
    lines.push('', `dev split by tag (recall@5: ${ENGINES.filter((e) => dev[0]?.answers[e]).join(' / ')}):`);
    for (const tag of tags) {
      const tagged = dev.filter((o) => o.question.tags.includes(tag));
      const cells = ENGINES.filter((e) => tagged[0]?.answers[e]).map((e) => fixed(scoreRanks(tagged.map((o) => o.answers[e]!.rank)).recallAt5));
      lines.push(`  ${tag.padEnd(18)} ${String(tagged.length).padStart(3)}  ${cells.join(' / ')}`);
    }
  }
  const misses = dev.filter((o) => missed(o, shown));
  if (misses.length > 0) {
    lines.push('', `dev questions ${ENGINE_NAMES[shown]} misses in the top 5 (${misses.length}):`);
    for (const miss of misses) lines.push(describeMiss(miss, shown));
  }
  return lines.join('\n');
}

const missed = (o: QuestionOutcome, engine: Engine) => {
  const rank = o.answers[engine]?.rank ?? 0;
  return rank === 0 || rank > 5;
};

function describeMiss({ question, answers }: QuestionOutcome, engine: Engine): string {
  const mine = answers[engine]!;
  const got = mine.pages.slice(0, 3).join(', ') || 'nothing';
  const rank = mine.rank > 0 ? `rank ${mine.rank}` : 'not in top 10';
  const others = ENGINES.filter((e) => e !== engine && answers[e]).map((e) => `${e} ${answers[e]!.rank || '-'}`);
  return `  "${question.q}" → wanted ${question.pages.join(' or ')} (${rank}; ${others.join(', ')}), got ${got}`;
}
