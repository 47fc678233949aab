import { ScheduleNotFoundError } from '@temporalio/client';
import { automationScheduleId } from '../contracts/automation-run.js';
import type { AutomationInput } from './automation-input.js';
import * as v from 'valibot';
import { AutomationRecordSchema, AutomationRunSchema, newAutomationId, type AutomationRecord } from './automation-record.js';
import { automationScheduleOptions, scheduleStateOf, ScheduleStateSchema, type ScheduleState } from './automation-schedule.js';
import type { StoredAutomation } from './automation-store.js';
import type { AutomationDeps } from './start-automation-job.js';
import { canonicalTimeZone } from './timing.js';

/**
 * An automation as the API and the CLI show it: the stored definition and the schedule's live state.
 * Declared once here; `AutomationView` is its type, and the API's automation object adds its wording.
 */
export const AutomationViewShape = v.object({
  ...v.pick(AutomationRecordSchema, ['id', 'projectId']).entries,
  /** The Temporal Schedule's id (`automationScheduleId`). */
  scheduleId: v.string(),
  ...v.omit(AutomationRecordSchema, ['id', 'projectId']).entries,
  ...ScheduleStateSchema.entries,
  lastRun: v.nullable(AutomationRunSchema),
});
export type AutomationView = v.InferOutput<typeof AutomationViewShape>;

/** Said of an automation whose schedule was deleted behind Quire's back (in the Temporal UI). */
const MISSING: ScheduleState = { paused: true, note: 'the Temporal schedule is missing; delete this automation and add it again', nextRunTimes: [] };

type Deps = Pick<AutomationDeps, 'temporal' | 'automations' | 'config'>;

const handleOf = (deps: Deps, record: AutomationRecord) => deps.temporal.schedule.getHandle(automationScheduleId(record.projectId, record.id));

async function viewOf(deps: Deps, stored: StoredAutomation): Promise<AutomationView> {
  let state: ScheduleState;
  try {
    state = scheduleStateOf(await handleOf(deps, stored.record).describe());
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
    state = MISSING;
  }
  return { ...stored.record, scheduleId: automationScheduleId(stored.record.projectId, stored.record.id), ...state, lastRun: stored.lastRun };
}

/**
 * Creates an automation: its record (with the prompt) first, then its Temporal Schedule; a schedule
 * that cannot be created forgets the record again. `model` was checked against the project by the caller.
 */
export async function createAutomation(deps: Deps, projectId: string, input: AutomationInput): Promise<AutomationView> {
  const record: AutomationRecord = {
    id: newAutomationId(),
    projectId,
    cron: input.cron?.trim() ?? null,
    interval: input.interval?.trim() ?? null,
    timezone: canonicalTimeZone(input.timezone ?? 'UTC'),
    prompt: input.prompt,
    model: input.model ?? null,
    asDraft: input.asDraft ?? false,
    createdAt: new Date().toISOString(),
  };
  await deps.automations.create(record);
  try {
    const options = automationScheduleOptions(record, deps.config.temporal.taskQueue, input.note);
    await deps.temporal.schedule.create({ ...options, state: { ...options.state, paused: input.paused ?? false } });
  } catch (err) {
    await deps.automations.remove(projectId, record.id).catch(() => undefined);
    throw err;
  }
  return viewOf(deps, { record, lastRun: null, runVersion: null });
}

export async function listAutomations(deps: Deps, projectId: string): Promise<AutomationView[]> {
  const stored = await deps.automations.list(projectId);
  return Promise.all(stored.map((s) => viewOf(deps, s)));
}

export async function getAutomation(deps: Deps, projectId: string, id: string): Promise<AutomationView | undefined> {
  const stored = await deps.automations.get(projectId, id);
  return stored ? viewOf(deps, stored) : undefined;
}

/** Deletes the schedule (already gone is fine), then the record; running jobs it started go on. */
export async function deleteAutomation(deps: Deps, projectId: string, id: string): Promise<boolean> {
  const stored = await deps.automations.get(projectId, id);
  if (!stored) return false;
  try {
    await handleOf(deps, stored.record).delete();
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
  await deps.automations.remove(projectId, id);
  return true;
}

/**
 * Deletes every automation of a project, schedules first: a project deleted with its automations
 * left would have them fire for nothing, unreachable through the API (the project answers 404), and
 * start jobs again on a later project of the same id.
 */
export async function deleteProjectAutomations(deps: Deps, projectId: string): Promise<number> {
  const stored = await deps.automations.list(projectId);
  for (const { record } of stored) await deleteAutomation(deps, projectId, record.id);
  return stored.length;
}

/** Pauses or resumes the schedule, with the operator's note (Temporal shows it beside the schedule). */
export async function setAutomationPaused(
  deps: Deps,
  projectId: string,
  id: string,
  paused: boolean,
  note?: string,
): Promise<AutomationView | undefined> {
  const stored = await deps.automations.get(projectId, id);
  if (!stored) return undefined;
  const handle = handleOf(deps, stored.record);
  try {
    if (paused) await handle.pause(note || 'paused through Quire');
    else await handle.unpause(note || 'resumed through Quire');
  } catch (err) {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  }
  return viewOf(deps, stored);
}
