import * as v from 'valibot';
import { JOB_EVENT_TYPES, type JobEvent } from './job-events.js';

const JobEventSchema = v.object({
  seq: v.pipe(v.number(), v.integer()),
  type: v.picklist(JOB_EVENT_TYPES),
  time: v.string(),
  jobId: v.string(),
  projectId: v.string(),
  data: v.record(v.string(), v.unknown()),
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
