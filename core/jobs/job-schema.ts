import * as v from 'valibot';
import { JOB_STATUSES, type JobRecord } from './job-record.js';

const JobRecordSchema = v.object({
  id: v.string(),
  projectId: v.string(),
  status: v.picklist(JOB_STATUSES),
  source: v.object({ repository: v.string(), ref: v.string() }),
  model: v.string(),
  prLink: v.nullable(v.string()),
  createdAt: v.string(),
  archivedAt: v.nullable(v.string()),
  updatedAt: v.string(),
  error: v.nullable(v.object({ code: v.string(), message: v.string() })),
  revision: v.number(),
});

/** Narrows a decoded memo or stored JSON to a job record; anything else is not one of ours. */
export function parseJobRecord(value: unknown): JobRecord | undefined {
  const parsed = v.safeParse(JobRecordSchema, value);
  return parsed.success ? parsed.output : undefined;
}

/** Parses a stored JSON string; a corrupt entry reads as missing rather than crashing a listing. */
export function parseJobRecordJson(raw: string): JobRecord | undefined {
  try {
    return parseJobRecord(JSON.parse(raw));
  } catch {
    return undefined;
  }
}
