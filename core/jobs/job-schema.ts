/**
 * The agent job's shape, declared once: the valibot entries below give the types
 * (`JobRecord`, `JobView`, `Todo`… in job-record.ts and job-report.ts, as
 * `v.InferOutput`), the parse of a stored record, and, with the API's wording
 * added (api/agent/schemas.ts), the job object of the served OpenAPI document.
 * Workflow code must not import this file for values (the sandbox would bundle
 * valibot): the files it imports take only types from here.
 */
import * as v from 'valibot';
import { jobBranch, JOB_STATUSES, type JobRecord } from './job-record.js';
import { JOB_STOP_REASONS, MAX_SUMMARY_CHARS, MAX_TODO_CHARS, MAX_TODOS, TODO_STATUSES } from './job-report.js';

/** Written by `Date.prototype.toISOString`. */
const dateTime = v.pipe(v.string(), v.isoTimestamp());

/** One item of the agent's plan, as the model wrote it with its todo tool (bounded by `boundTodos`). */
export const TodoSchema = v.object({
  id: v.string(),
  content: v.pipe(v.string(), v.maxLength(MAX_TODO_CHARS)),
  status: v.picklist(TODO_STATUSES),
});

export const JobErrorSchema = v.object({ code: v.string(), message: v.string() });

export const JobSourceSchema = v.object({
  /** Never carries credentials: see `publicRepository`. */
  repository: v.string(),
  ref: v.string(),
});

/** What the API shows and Quire keeps alike. */
export const JobFieldsSchema = v.object({
  id: v.string(),
  status: v.picklist(JOB_STATUSES),
  source: JobSourceSchema,
  model: v.string(),
  /** The pull request of the job's branch, kept even while a follow-up turn runs. */
  prLink: v.nullable(v.string()),
  createdAt: dateTime,
  archivedAt: v.nullable(dateTime),
  updatedAt: dateTime,
  /** The branch the agent pushes to (`quire/<id>`). */
  branch: v.string(),
  /** The pull request's title once a turn changed something; null before. */
  title: v.nullable(v.string()),
  /** The model's message to the user for the last turn, or why nothing changed; null before the first turn ends (bounded by `boundSummary`). */
  summary: v.nullable(v.pipe(v.string(), v.maxLength(MAX_SUMMARY_CHARS))),
  /** Turns begun, the running one included. */
  turns: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** Docs-relative paths changed across the job's turns, in the order first changed. */
  filesChanged: v.array(v.string()),
  /** The bound that stopped the last turn before the model finished; null when it finished on its own. */
  stopReason: v.nullable(v.picklist(JOB_STOP_REASONS)),
  /** The agent's plan as it last wrote it. */
  todos: v.pipe(v.array(TodoSchema), v.maxLength(MAX_TODOS)),
});

/** The job as Quire keeps it (see job-record.ts). */
export const JobRecordSchema = v.object({
  ...JobFieldsSchema.entries,
  projectId: v.string(),
  error: v.nullable(JobErrorSchema),
  /** Pull requests open as drafts (chosen at create time; every run of the job reads it). */
  draft: v.boolean(),
  /**
   * Grows with every state change; the store keeps the highest one, so a write of an activity
   * attempt that timed out but still commits late never replaces a newer state.
   */
  revision: v.number(),
});

/** The job object of API.md, as `toJobView` writes it; the API adds its wording (api/agent/schemas.ts). */
export const JobViewShape = v.object({
  ...JobFieldsSchema.entries,
  error: v.optional(JobErrorSchema),
});

const fields = JobRecordSchema.entries;

/** A stored record: records written before a job said what it did lack the newer fields; they read as "nothing yet". */
const StoredJobRecordSchema = v.object({
  ...fields,
  draft: v.optional(fields.draft, false),
  // Filled in by `parseJobRecord`: the branch is derived from the id.
  branch: v.optional(fields.branch),
  title: v.optional(fields.title, null),
  summary: v.optional(fields.summary, null),
  turns: v.optional(fields.turns, 0),
  filesChanged: v.optional(fields.filesChanged, []),
  stopReason: v.optional(fields.stopReason, null),
  todos: v.optional(fields.todos, []),
});

/** Narrows a decoded memo or stored JSON to a job record; anything else is not one of ours. */
export function parseJobRecord(value: unknown): JobRecord | undefined {
  const parsed = v.safeParse(StoredJobRecordSchema, value);
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
