import * as v from 'valibot';
import type { ThreadTranscript } from '../../core/threads/index.js';
import { sameType } from '../openapi/operation.js';

const dateTime = v.pipe(v.string(), v.isoTimestamp());

/** One question and its answer as the thread store keeps it. */
const ExchangeSchema = v.object({
  messageId: v.string(),
  question: v.string(),
  answer: v.pipe(v.string(), v.description('As far as it streamed.')),
  sources: v.array(v.object({ url: v.string(), title: v.string(), path: v.string() })),
  fp: v.string(),
  mode: v.picklist(['model', 'extractive']),
  outcome: v.picklist(['complete', 'error', 'aborted']),
  error: v.optional(v.string()),
  startedAt: dateTime,
  finishedAt: dateTime,
});

/** A thread's transcript as an admin reads it: everything the store keeps but the key's hash. */
export const ThreadSchema = v.object({
  threadId: v.string(),
  orgId: v.string(),
  domainId: v.string(),
  createdAt: dateTime,
  updatedAt: dateTime,
  exchanges: v.array(ExchangeSchema),
});
sameType<v.InferOutput<typeof ThreadSchema>, Omit<ThreadTranscript, 'keyHash'>>(true);

export const ThreadParams = v.object({ threadId: v.pipe(v.string(), v.minLength(1), v.description('The thread id the assistant stream announced.')) });
