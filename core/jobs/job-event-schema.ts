import * as v from 'valibot';
import { JOB_EVENT_TYPES, type JobEvent } from './job-events.js';

/** One job event as readers see it: a stored entry, an SSE frame's `data:`, a webhook's body (which adds `id`). */
export const JobEventSchema = v.object({
  seq: v.pipe(v.number(), v.integer(), v.description('Per job, 1, 2, 3…; the SSE `id`.')),
  type: v.picklist(JOB_EVENT_TYPES),
  time: v.pipe(v.string(), v.description('ISO 8601.')),
  jobId: v.string(),
  projectId: v.string(),
  data: v.pipe(v.record(v.string(), v.unknown()), v.description('Summaries by type (README, “Job events”); never file contents.')),
});

/** Parses a stored event; a corrupt entry reads as missing rather than breaking a stream. */
export function parseJobEventJson(raw: string): JobEvent | undefined {
  try {
    const parsed = v.safeParse(JobEventSchema, JSON.parse(raw));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}
