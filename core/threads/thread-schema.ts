/**
 * An assistant thread's shape, declared once: the types in types.ts are the
 * `v.InferOutput` of these schemas, and the API's thread transcript
 * (api/threads/schema.ts) adds its wording to them.
 */
import * as v from 'valibot';

/** Written by `Date.prototype.toISOString`. */
const dateTime = v.pipe(v.string(), v.isoTimestamp());

export const ThreadSourceSchema = v.object({ url: v.string(), title: v.string(), path: v.string() });

/** One question and its answer, as streamed (a failed or cut answer is kept as far as it got). */
export const ThreadExchangeSchema = v.object({
  messageId: v.string(),
  question: v.string(),
  answer: v.string(),
  sources: v.array(ThreadSourceSchema),
  fp: v.string(),
  /** 'model' when a language model answered, 'extractive' when quoted passages did. */
  mode: v.picklist(['model', 'extractive']),
  outcome: v.picklist(['complete', 'error', 'aborted']),
  error: v.optional(v.string()),
  startedAt: dateTime,
  finishedAt: dateTime,
});

export const ThreadTranscriptSchema = v.object({
  threadId: v.string(),
  orgId: v.string(),
  domainId: v.string(),
  /** SHA-256 of the thread key handed out at creation; continuing the thread needs the key. */
  keyHash: v.optional(v.string()),
  createdAt: dateTime,
  updatedAt: dateTime,
  exchanges: v.array(ThreadExchangeSchema),
});
