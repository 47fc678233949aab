import * as v from 'valibot';
import { ThreadExchangeSchema, ThreadTranscriptSchema } from '../../core/threads/index.js';

/** One question and its answer as the thread store keeps it (core/threads/thread-schema.ts), with the document's wording. */
const ExchangeSchema = v.object({
  ...ThreadExchangeSchema.entries,
  answer: v.pipe(ThreadExchangeSchema.entries.answer, v.description('As far as it streamed.')),
});

/** A thread's transcript as an admin reads it: everything the store keeps but the key's hash. */
export const ThreadSchema = v.object({
  ...v.omit(ThreadTranscriptSchema, ['keyHash']).entries,
  exchanges: v.array(ExchangeSchema),
});

export const ThreadParams = v.object({ threadId: v.pipe(v.string(), v.minLength(1), v.description('The thread id the assistant stream announced.')) });
