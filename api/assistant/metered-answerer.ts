import { secondsSince, type AssistantMetrics } from '../../core/telemetry/index.js';
import type { AnswerInput, AnswerRun, Answerer } from './answerer.js';

/**
 * Every answer of every door, measured once: the time from the answer's start to its first
 * token, and how it ended (answered, failed, or aborted by the reader).
 */
export function meteredAnswerer(inner: Answerer, metrics: AssistantMetrics): Answerer {
  return {
    mode: inner.mode,
    answer(input: AnswerInput): AnswerRun {
      const started = performance.now();
      const run = inner.answer(input);
      async function* deltas(): AsyncGenerator<string> {
        let first = true;
        let outcome: 'answered' | 'failed' | 'aborted' = 'failed';
        try {
          for await (const delta of run.deltas) {
            if (first && delta) {
              first = false;
              metrics.firstToken(secondsSince(started));
            }
            yield delta;
          }
          outcome = input.signal.aborted ? 'aborted' : 'answered';
        } finally {
          // A reader who left mid-answer stops the stream from outside: it ends here without an error.
          metrics.answered(outcome === 'failed' && input.signal.aborted ? 'aborted' : outcome, input.orgId);
        }
      }
      return { deltas: deltas(), usage: () => run.usage() };
    },
  };
}
