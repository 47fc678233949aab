import * as v from 'valibot';
import { JOB_STATUSES } from '../../core/jobs/index.js';
import { MAX_DELIVERIES } from '../../core/webhooks/index.js';

const prompt = v.pipe(
  v.string('prompt is required and must be a string'),
  v.minLength(1, 'prompt must not be empty'),
  v.check((text) => text.trim().length > 0, 'prompt must not be only whitespace'),
  v.maxLength(100_000, 'prompt must be at most 100000 characters'),
);

export const CreateJobBody = v.object({
  prompt,
  model: v.optional(v.pipe(v.string('model must be a string'), v.minLength(1, 'model must not be empty'))),
  asDraft: v.optional(v.boolean('asDraft must be true or false')),
});

export const MessageBody = v.object({ prompt });

/** A `limit` query parameter: a whole number from 1 to `max`, `fallback` when absent. */
const limitQuery = (max: number, fallback: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'limit must be a whole number'),
      v.transform(Number),
      v.minValue(1, 'limit must be at least 1'),
      v.maxValue(max, `limit must be at most ${max}`),
    ),
    fallback,
  );

export const ListJobsQuery = v.object({
  status: v.optional(v.picklist(JOB_STATUSES, `status must be one of ${JOB_STATUSES.join(', ')}`)),
  limit: limitQuery(100, '20'),
  cursor: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(512))),
});

/** A client may name its message so a retried POST is not processed twice. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{8,128}$/;

export const DeliveriesQuery = v.object({
  limit: limitQuery(MAX_DELIVERIES, '50'),
});
