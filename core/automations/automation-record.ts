import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { AUTOMATION_SKIP } from '../contracts/automation-run.js';

const AUTOMATION_ID = /^aut_[a-z0-9]{12}$/;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** An automation id (`aut_` and 12 base-36 characters): short enough to read in a schedule id. */
export function newAutomationId(): string {
  let id = '';
  for (const b of randomBytes(12)) id += ALPHABET[b % ALPHABET.length];
  return `aut_${id}`;
}

export function isAutomationId(value: string): boolean {
  return AUTOMATION_ID.test(value);
}

/** Written by `Date.prototype.toISOString`. */
const when = v.pipe(v.string(), v.isoTimestamp());

/**
 * A recurring agent job for a project, as Quire stores it (the schedule itself lives in Temporal):
 * declared once here; `AutomationRecord` is its type, and the API's automation object adds its wording.
 */
export const AutomationRecordSchema = v.object({
  id: v.string(),
  projectId: v.string(),
  /** Exactly one of `cron` (five fields or an `@` name) and `interval` (`90s`, `15m`, `2h`, `1d`). */
  cron: v.nullable(v.string()),
  interval: v.nullable(v.string()),
  /** IANA zone the cron expression is read in. */
  timezone: v.string(),
  /** Kept here, never in the schedule or workflow history; each firing copies it into the new job's message. */
  prompt: v.string(),
  /** The model asked for; null means the project's default at firing time. */
  model: v.nullable(v.string()),
  asDraft: v.boolean(),
  createdAt: when,
});
export type AutomationRecord = v.InferOutput<typeof AutomationRecordSchema>;

/** What the latest firing (or trigger) did. */
export const AutomationRunSchema = v.object({
  at: when,
  jobId: v.nullable(v.string()),
  skipped: v.nullable(v.object({ code: v.picklist(Object.values(AUTOMATION_SKIP)), reason: v.string() })),
});
export type AutomationRun = v.InferOutput<typeof AutomationRunSchema>;

function parsed<S extends v.GenericSchema>(schema: S, raw: string): v.InferOutput<S> | undefined {
  try {
    const result = v.safeParse(schema, JSON.parse(raw));
    return result.success ? result.output : undefined;
  } catch {
    return undefined;
  }
}

/** A stored record; a corrupt entry reads as missing rather than breaking a listing. */
export const parseAutomationJson = (raw: string): AutomationRecord | undefined => parsed(AutomationRecordSchema, raw);
export const parseAutomationRunJson = (raw: string): AutomationRun | undefined => parsed(AutomationRunSchema, raw);
