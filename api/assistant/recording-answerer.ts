import type { AnalyticsRecorder, AnswerRecord, UnansweredReason } from '../../core/analytics/index.js';
import type { Citation } from './answer-writer.js';
import type { AnswerInput, AnswerRun, AnswerTrace, Answerer } from './answerer.js';

const CITATION_MARKER = /\[\d+\]/;

/**
 * Whether an answer answered. Without passages nothing could; a model that
 * cites none of the passages it was given has said the docs do not cover the
 * question (its instructions require a citation for every statement and
 * allow none only then); an answer that broke off did not answer. The
 * extractive mode quotes passages whenever there are any.
 */
export function unansweredReason(mode: Answerer['mode'], citations: Citation[], answer: string, completed: boolean): UnansweredReason | null {
  if (citations.length === 0) return 'no_passages';
  if (!completed) return 'failed';
  if (mode === 'model' && !CITATION_MARKER.test(answer)) return 'no_citation';
  return null;
}

/** The first path segment of the best source: `/guides/deploy` → `guides`; a page at the root is its own category. */
export function categoryOf(citations: Citation[]): string | null {
  const best = citations[0];
  if (!best) return null;
  return best.path.split('/').find((segment) => segment.length > 0) ?? null;
}

/**
 * Every answer of every door (assistant v1/v2, Chat Completions, MCP) comes
 * out of an answerer: wrapping it records each traced answer once, when its
 * stream ends, completes, fails or is abandoned. Recording only enqueues, so
 * it never delays or fails the answer.
 */
export function recordingAnswerer(inner: Answerer, recorder: AnalyticsRecorder): Answerer {
  return {
    mode: inner.mode,
    answer(input: AnswerInput): AnswerRun {
      const run = inner.answer(input);
      const { trace } = input;
      if (!trace) return run;
      async function* deltas(traced: AnswerTrace): AsyncGenerator<string> {
        let text = '';
        let completed = false;
        try {
          for await (const delta of run.deltas) {
            text += delta;
            yield delta;
          }
          completed = !input.signal.aborted;
        } finally {
          const reason = unansweredReason(inner.mode, input.citations, text, completed);
          const record: AnswerRecord = {
            ...traced,
            at: recorder.now(),
            answer: text,
            sources: input.citations.map(({ title, url, path }) => ({ title, url, path })),
            mode: inner.mode,
            resolution: reason ? 'unanswered' : 'answered',
            unansweredReason: reason,
            category: categoryOf(input.citations),
          };
          recorder.record({ kind: 'answer', record });
        }
      }
      return { deltas: deltas(trace), usage: () => run.usage() };
    },
  };
}
