import { createHash } from 'node:crypto';
import { questionTerms } from './question-terms.js';
import type { AnswerRecord, AnswerSource, GapQuestion } from './types.js';

/** Two questions are on one topic when this share of their combined terms' weight is common (weighted Jaccard). */
export const SAME_TOPIC = 0.4;
const SAMPLE_QUESTIONS = 10;
const NEAREST_PAGES = 3;
const TOPIC_TERMS = 3;

/** One of a gap's example questions, with the thread that asked it, so a reader of the gap can see the conversation. */
export interface GapExample {
  question: string;
  /** The newest thread that asked it; null when only the stateless doors (OpenAI-compatible, MCP), which keep no thread, did. */
  threadId: string | null;
}

export interface CoverageGap {
  /** Its earliest question's `gapIdOf`: questions joining the gap, and the topic words they bring, do not change it. */
  id: string;
  /**
   * `gapIdOf` each of its questions, its own id first: the ids the gap answers to. An id given out
   * before two gaps merged still finds the merged gap, and a job started on it stays with its questions.
   */
  aliases: string[];
  topic: string[];
  count: number;
  unanswered: number;
  notHelpful: number;
  /** Its distinct questions, newest first, at most SAMPLE_QUESTIONS: the texts of `examples`. */
  questions: string[];
  examples: GapExample[];
  pages: AnswerSource[];
  suggestion: string;
  lastAskedAt: number;
}

/** The id of a gap whose earliest question is the answer `answerId`. */
export function gapIdOf(answerId: string): string {
  return `gap_${createHash('sha256').update(answerId).digest('hex').slice(0, 16)}`;
}

/**
 * Each term's weight in a period: 1 while at most about half its questions have it, falling
 * towards 0 as nearly all do, so the function words of any language and verbs every question
 * uses ("add", "set up") do not decide a topic. Counted against one question more than there are,
 * so the terms of a period of two like questions still weigh.
 */
function termWeights(sets: Array<Set<string>>): Map<string, number> {
  const questionsWith = new Map<string, number>();
  for (const set of sets) for (const term of set) questionsWith.set(term, (questionsWith.get(term) ?? 0) + 1);
  const n = sets.length + 1;
  return new Map([...questionsWith].map(([term, k]) => [term, Math.min(1, 2 * (1 - k / n))]));
}

/** Groups of the questions linked, directly or through others, by a similarity of at least SAME_TOPIC, in question order. */
function connectedGroups(sets: Array<Set<string>>, weights: Map<string, number>): number[][] {
  const weight = (term: string) => weights.get(term) ?? 0;
  const totals = sets.map((set) => [...set].reduce((sum, term) => sum + weight(term), 0));
  const root = sets.map((_, i) => i);
  const find = (i: number): number => (root[i] === i ? i : (root[i] = find(root[i]!)));
  for (let i = 0; i < sets.length; i++) {
    for (let j = i + 1; j < sets.length; j++) {
      let common = 0;
      for (const term of sets[i]!) if (sets[j]!.has(term)) common += weight(term);
      const union = totals[i]! + totals[j]! - common;
      if (union > 0 && common / union >= SAME_TOPIC) root[find(j)] = find(i);
    }
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < sets.length; i++) {
    const group = groups.get(find(i));
    if (group) group.push(i);
    else groups.set(find(i), [i]);
  }
  return [...groups.values()];
}

/** What to change, from the topic's terms and the nearest page only: a reader's words never become a sentence of it. */
function suggestionFor(topic: string[], pages: AnswerSource[]): string {
  // "csv and export", "rotate, key and sla": the topic's words as a list in a sentence.
  const subject = topic.length > 1 ? `${topic.slice(0, -1).join(', ')} and ${topic.at(-1)}` : topic[0];
  const about = subject ? ` about ${subject}` : '';
  const nearest = pages[0];
  return nearest
    ? `Extend "${nearest.title}" (${nearest.path}) to answer the readers' questions${about}.`
    : `Add a page that answers the readers' questions${about}.`;
}

/**
 * The pages an answer's question is near: the pages it cited, unless it shares no word with them
 * (an extractive answer's `no_match`: the search named the closest pages whatever was asked). A
 * gap of only such questions is a page to add, not an unrelated page to extend.
 */
function nearestSources(record: AnswerRecord): AnswerSource[] {
  return record.unansweredReason === 'no_match' ? [] : record.sources;
}

/** A gap's distinct questions from its answers newest first, each with the newest thread that asked it. */
function examplesOf(newestFirst: AnswerRecord[]): GapExample[] {
  const threadOf = new Map<string, string | null>();
  for (const r of newestFirst) if (!threadOf.get(r.question)) threadOf.set(r.question, r.threadId);
  return [...threadOf].slice(0, SAMPLE_QUESTIONS).map(([question, threadId]) => ({ question, threadId }));
}

/**
 * Groups unanswered and poorly rated questions into coverage gaps. Every
 * question is reduced to its terms (see `questionTerms`), each term weighed by
 * how few of the period's questions have it (`termWeights`). Two questions
 * whose common terms hold at least `SAME_TOPIC` of their combined weight are
 * linked, and each connected group is a gap. A gap's topic is its most frequent
 * terms (by weight), its pages the sources its answers cited most.
 * Deterministic and independent of the input's order: the same questions
 * always give the same gaps, in the same order (largest first).
 */
export function coverageGaps(input: GapQuestion[]): CoverageGap[] {
  const questions = [...input].sort((a, b) => a.record.at - b.record.at || (a.record.id < b.record.id ? -1 : 1));
  const terms = questions.map((q) => questionTerms(q.record.question));
  const sets = terms.map((t) => new Set(t.map((x) => x.stem)));
  const weights = termWeights(sets);
  const groups = connectedGroups(sets, weights);

  const gaps = groups.map((members): CoverageGap => {
    const stemCount = new Map<string, number>();
    const wordOf = new Map<string, string>();
    const pageCount = new Map<string, { source: AnswerSource; n: number }>();
    for (const i of members) {
      for (const t of terms[i]!) {
        stemCount.set(t.stem, (stemCount.get(t.stem) ?? 0) + 1);
        if (!wordOf.has(t.stem)) wordOf.set(t.stem, t.word);
      }
      for (const source of nearestSources(questions[i]!.record)) {
        const seen = pageCount.get(source.path);
        pageCount.set(source.path, { source: seen?.source ?? { title: source.title, url: source.url.split('#')[0] ?? source.url, path: source.path }, n: (seen?.n ?? 0) + 1 });
      }
    }
    const weighed = (stem: string) => (stemCount.get(stem) ?? 0) * (weights.get(stem) ?? 0);
    const stems = [...stemCount.keys()].sort((a, b) => weighed(b) - weighed(a) || (a < b ? -1 : 1)).slice(0, TOPIC_TERMS);
    const topic = stems.map((s) => wordOf.get(s) ?? s);
    const pages = [...pageCount.values()].sort((a, b) => b.n - a.n || (a.source.path < b.source.path ? -1 : 1)).slice(0, NEAREST_PAGES).map((p) => p.source);
    const examples = examplesOf([...members].reverse().map((i) => questions[i]!.record));
    const aliases = members.map((i) => gapIdOf(questions[i]!.record.id));
    const notHelpful = members.filter((i) => questions[i]!.notHelpful).length;
    return {
      id: aliases[0]!,
      aliases,
      topic,
      count: members.length,
      unanswered: members.filter((i) => questions[i]!.record.resolution === 'unanswered').length,
      notHelpful,
      questions: examples.map((e) => e.question),
      examples,
      pages,
      suggestion: suggestionFor(topic, pages),
      lastAskedAt: Math.max(...members.map((i) => questions[i]!.record.at)),
    };
  });
  return gaps.sort((a, b) => b.count - a.count || b.lastAskedAt - a.lastAskedAt || (a.id < b.id ? -1 : 1));
}
