import type { AnalyticsRecorder } from '../../core/analytics/index.js';
import type { CompletionWriter } from '../../core/completions/index.js';
import { storedCompletionOf, type CompletionRecord } from './completion-record.js';

/**
 * Where every answer ends: each completion record becomes one analytics answer record and, when it
 * belongs to a thread, one thread exchange. Taking a record never waits and never throws: the main
 * thread only stamps it (the recorder's clock) and hands it to the completion writer, whose thread
 * writes the records of each turn of the event loop together, off the response path. The answer
 * service's own reader waits for the thread's exchanges to be committed (`settled`).
 */
export class CompletionSink {
  constructor(private readonly deps: { completions: CompletionWriter; recorder: Pick<AnalyticsRecorder, 'now'> }) {}

  complete(record: CompletionRecord): void {
    this.deps.completions.take(storedCompletionOf(record, this.deps.recorder.now()));
  }

  /** Resolves once the thread's exchanges taken so far are committed (at once when none is pending). */
  settled(orgId: string, threadId: string): Promise<void> {
    return this.deps.completions.settled(orgId, threadId);
  }

  /** Resolves once everything taken so far is written. */
  flush(): Promise<void> {
    return this.deps.completions.flush();
  }
}
