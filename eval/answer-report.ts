import { EXTRACTIVE_LABEL } from '../api/assistant/extractive-answerer.js';
import { retrievalLabel, type AnswerEmbedder } from './answer-options.js';
import type { AnswerOutcome } from './answer-run.js';
import type { Split } from './questions.js';

const SPLITS: Split[] = ['dev', 'test'];
const SHOWN_CHARS = 200;

export interface AnswerScores {
  /** The split's answerable questions. */
  questions: number;
  /** Shares of the split's answerable questions; `refused` is a false refusal. */
  statesFact: number;
  citesPage: number;
  refused: number;
  baselineStatesFact: number;
  retrievedPage: number;
  /** The split's questions the docs do not answer. */
  unanswerable: number;
  /** Shares of those: the answer says the docs do not cover it; the baseline declines only when the search found no page. */
  declines: number;
  baselineDeclines: number;
}

const share = (outcomes: AnswerOutcome[], test: (o: AnswerOutcome) => boolean) => (outcomes.length === 0 ? 0 : outcomes.filter(test).length / outcomes.length);

/** Each split's shares: of its answerable questions, and apart, of those the docs do not answer. */
export function scoreAnswers(outcomes: AnswerOutcome[]): Array<{ split: Split; scores: AnswerScores }> {
  return SPLITS.map((split) => {
    const mine = outcomes.filter((o) => o.question.split === split && !o.question.unanswerable);
    const unanswerable = outcomes.filter((o) => o.question.split === split && o.question.unanswerable);
    return {
      split,
      scores: {
        questions: mine.length,
        statesFact: share(mine, (o) => o.statesFact),
        citesPage: share(mine, (o) => o.citesPage),
        refused: share(mine, (o) => o.refused),
        baselineStatesFact: share(mine, (o) => o.baselineStatesFact),
        retrievedPage: share(mine, (o) => o.retrievedPage),
        unanswerable: unanswerable.length,
        declines: share(unanswerable, (o) => o.refused),
        baselineDeclines: share(unanswerable, (o) => o.baselineDeclines),
      },
    };
  });
}

/** An answer on one line, without the extractive label that opens every quoted answer. */
const shownAnswer = (text: string) => text.replace(EXTRACTIVE_LABEL, '').replace(/\s+/g, ' ').trim().slice(0, SHOWN_CHARS);
const expectedOf = (o: AnswerOutcome) => o.question.expect.map((a) => (typeof a === 'string' ? `"${a}"` : a.map((p) => `"${p}"`).join(' + '))).join(' or ');

/** How many answers' searches ranked each way (`none`: the search found nothing), e.g. `hybrid 63`. */
export function retrievalCounts(outcomes: AnswerOutcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o.retrieval ?? 'none', (counts.get(o.retrieval ?? 'none') ?? 0) + 1);
  return [...counts].map(([mode, n]) => `${mode} ${n}`).join(', ');
}

/**
 * The set's table per split, then the dev questions whose answer misses the fact and the dev
 * questions the docs do not answer that were answered anyway (never the test split's). `embedder` names the retrieval the run used, whose modes per answer are counted.
 */
export function formatAnswerRun(name: string, outcomes: AnswerOutcome[], embedder: AnswerEmbedder = 'none'): string {
  const lines = [
    `${name}: extractive answers over ${retrievalLabel(embedder)}`,
    `answers' retrieval: ${retrievalCounts(outcomes)}`,
    '',
    '| split | questions | states the fact | cites an expected page | refuses | baseline states the fact | expected page retrieved | unanswerable | declines | baseline declines |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const { split, scores: s } of scoreAnswers(outcomes)) {
    const answerable = [s.statesFact, s.citesPage, s.refused, s.baselineStatesFact, s.retrievedPage].map((n) => n.toFixed(3));
    lines.push(`| ${split} | ${s.questions} | ${answerable.join(' | ')} | ${s.unanswerable} | ${s.declines.toFixed(3)} | ${s.baselineDeclines.toFixed(3)} |`);
  }
  const dev = outcomes.filter((o) => o.question.split === 'dev');
  const misses = dev.filter((o) => !o.question.unanswerable && !o.statesFact);
  lines.push('', `dev answers without the expected fact (${misses.length}; each answer's first ${SHOWN_CHARS} characters after its label):`);
  for (const o of misses) {
    lines.push(`- ${o.question.q}`, `  expected: ${expectedOf(o)} (pages ${o.question.pages.join(', ')})`, `  answer: ${shownAnswer(o.answer)}`);
  }
  const answered = dev.filter((o) => o.question.unanswerable && !o.refused);
  lines.push('', `dev questions the docs do not answer, answered anyway (${answered.length}):`);
  for (const o of answered) lines.push(`- ${o.question.q}`, `  answer: ${shownAnswer(o.answer)}`);
  return lines.join('\n');
}
