import * as v from 'valibot';
import { AutomationNote, AutomationRunSchema, AutomationViewShape } from '../../core/automations/index.js';
import { JobViewSchema } from '../agent/schemas.js';

/** The body of pause and resume: an optional note; an empty body is fine. */
export const PauseBody = v.optional(v.object({ note: v.optional(AutomationNote) }), {});

export const AutomationParams = v.object({
  projectId: v.pipe(v.string(), v.minLength(1), v.description('A project of the key’s organisation.')),
  automationId: v.pipe(v.string(), v.minLength(1), v.description('The automation id (`aut_…`).')),
});

const automation = AutomationViewShape.entries;
const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));

/**
 * The automation object of README's Automations section: the shape core declares
 * (core/automations/automations.ts), with the document's wording added to its entries.
 */
export const AutomationViewSchema = v.object({
  ...automation,
  id: described(automation.id, '`aut_` and 12 characters.'),
  scheduleId: described(automation.scheduleId, 'The Temporal Schedule’s id: `quire-automation-<project>-<id>`.'),
  cron: described(automation.cron, 'Set when the automation fires by a cron expression.'),
  interval: described(automation.interval, 'Set when it fires every interval (`90s`, `15m`, `2h`, `1d`).'),
  timezone: described(automation.timezone, 'The IANA zone the cron expression is read in (`UTC` by default).'),
  model: described(automation.model, 'null: the project’s default model when it fires.'),
  paused: described(automation.paused, 'From the schedule; true also when its schedule was deleted outside Quire (the note says so).'),
  note: described(automation.note, 'The schedule’s note (why it is paused).'),
  nextRunTimes: described(automation.nextRunTimes, 'The schedule’s next firings (empty while paused).'),
  lastRun: described(
    v.nullable(v.object({ ...AutomationRunSchema.entries, jobId: described(AutomationRunSchema.entries.jobId, 'The job it started; after a skip, the previous job.') })),
    'What the latest firing or trigger did; null before the first.',
  ),
});

export const AutomationListSchema = v.object({ automations: v.array(AutomationViewSchema) });
export const TriggeredSchema = v.object({ jobId: v.string(), job: JobViewSchema });
