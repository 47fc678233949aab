import { createHash } from 'node:crypto';
import { questionTerms } from './question-terms.js';
import type { AnswerSource, GapQuestion } from './types.js';

/** Two questions are on one topic when this share of their combined terms is common (Jaccard similarity). */
export const SAME_TOPIC = 0.4;
const SAMPLE_QUESTIONS = 10;
const NEAREST_PAGES = 3;
const TOPIC_TERMS = 3;

export interface CoverageGap {
  /** Derived from the topic's terms: the same topic keeps its id from one report to the next. */
  id: string;
  topic: string[];
  count: number;
  unanswered: number;
  notHelpful: number;
  questions: string[];
  pages: AnswerSource[];
  suggestion: string;
  lastAskedAt: number;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let common = 0;
  for (const t of a) if (b.has(t)) common += 1;
  const union = a.size + b.size - common;
  return union === 0 ? 0 : common / union;
}

function suggestionFor(topic: string[], pages: AnswerSource[], sample: string): string {
  const subject = topic.length > 0 ? topic.join(', ') : 'these questions';
  const nearest = pages[0];
  return nearest
    ? `Extend "${nearest.title}" (${nearest.path}) to answer questions about ${subject}, such as "${sample}".`
    : `Add a page about ${subject} that answers "${sample}".`;
}

/**
 * Groups unanswered and poorly rated questions into coverage gaps. Every
 * question is reduced to its terms (see `questionTerms`). Taken oldest first,
 * a question joins the first gap whose first question shares at least
 * `SAME_TOPIC` of their combined terms (Jaccard), else it starts a new gap.
 * A gap's topic is its most frequent terms, its pages the sources its answers
 * cited most. Deterministic: the same questions always give the same gaps, in
 * the same order (largest first).
 */
export function coverageGaps(input: GapQuestion[]): CoverageGap[] {
  const questions = [...input].sort((a, b) => a.record.at - b.record.at || (a.record.id < b.record.id ? -1 : 1));
  const terms = questions.map((q) => questionTerms(q.record.question));
  const sets = terms.map((t) => new Set(t.map((x) => x.stem)));
  // Each gap is led by its first question; comparing with the leader, not with any member, keeps
  // topics from chaining into one (a~b, b~c, c~d would otherwise join a and d).
  const groups: number[][] = [];
  sets.forEach((set, i) => {
    const home = groups.find((members) => jaccard(sets[members[0]!]!, set) >= SAME_TOPIC);
    if (home) home.push(i);
    else groups.push([i]);
  });

  const gaps = groups.map((members): CoverageGap => {
    const stemCount = new Map<string, number>();
    const wordOf = new Map<string, string>();
    const pageCount = new Map<string, { source: AnswerSource; n: number }>();
    for (const i of members) {
      for (const t of terms[i]!) {
        stemCount.set(t.stem, (stemCount.get(t.stem) ?? 0) + 1);
        if (!wordOf.has(t.stem)) wordOf.set(t.stem, t.word);
      }
      for (const source of questions[i]!.record.sources) {
        const seen = pageCount.get(source.path);
        pageCount.set(source.path, { source: seen?.source ?? { title: source.title, url: source.url.split('#')[0] ?? source.url, path: source.path }, n: (seen?.n ?? 0) + 1 });
      }
    }
    const stems = [...stemCount.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, TOPIC_TERMS).map(([s]) => s);
    const topic = stems.map((s) => wordOf.get(s) ?? s);
    const pages = [...pageCount.values()].sort((a, b) => b.n - a.n || (a.source.path < b.source.path ? -1 : 1)).slice(0, NEAREST_PAGES).map((p) => p.source);
    const newestFirst = [...members].reverse();
    const texts = [...new Set(newestFirst.map((i) => questions[i]!.record.question))];
    const id = `gap_${createHash('sha256').update([...stems].sort().join(' ') || texts[0] || '').digest('hex').slice(0, 16)}`;
    const notHelpful = members.filter((i) => questions[i]!.notHelpful).length;
    return {
      id,
      topic,
      count: members.length,
      unanswered: members.filter((i) => questions[i]!.record.resolution === 'unanswered').length,
      notHelpful,
      questions: texts.slice(0, SAMPLE_QUESTIONS),
      pages,
      suggestion: suggestionFor(topic, pages, texts[0] ?? ''),
      lastAskedAt: Math.max(...members.map((i) => questions[i]!.record.at)),
    };
  });
  return gaps.sort((a, b) => b.count - a.count || b.lastAskedAt - a.lastAskedAt || (a.id < b.id ? -1 : 1));
}
