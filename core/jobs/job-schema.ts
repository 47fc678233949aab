import * as v from 'valibot';
import { jobBranch, JOB_STATUSES, type JobRecord } from './job-record.js';
import { JOB_STOP_REASONS, TODO_STATUSES } from './job-report.js';

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
  draft: v.optional(v.boolean(), false),
  // Records written before a job said what it did lack these fields: they read as "nothing yet".
  branch: v.optional(v.string()),
  title: v.optional(v.nullable(v.string()), null),
  summary: v.optional(v.nullable(v.string()), null),
  turns: v.optional(v.number(), 0),
  filesChanged: v.optional(v.array(v.string()), []),
  stopReason: v.optional(v.nullable(v.picklist(JOB_STOP_REASONS)), null),
  todos: v.optional(v.array(v.object({ id: v.string(), content: v.string(), status: v.picklist(TODO_STATUSES) })), []),
});

/** Narrows a decoded memo or stored JSON to a job record; anything else is not one of ours. */
export function parseJobRecord(value: unknown): JobRecord | undefined {
  const parsed = v.safeParse(JobRecordSchema, value);
  if (!parsed.success) return undefined;
  return { ...parsed.output, branch: parsed.output.branch ?? jobBranch(parsed.output.id) };
}

/** Parses a stored JSON string; a corrupt entry reads as missing rather than crashing a listing. */
export function parseJobRecordJson(raw: string): JobRecord | undefined {
  try {
    return parseJobRecord(JSON.parse(raw));
  } catch {
    return undefined;
  }
}
