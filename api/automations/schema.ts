import * as v from 'valibot';
import { AutomationNote, type AutomationView } from '../../core/automations/index.js';
import { AUTOMATION_SKIP } from '../../core/contracts/index.js';
import { JobViewSchema } from '../agent/schemas.js';
import { sameType } from '../openapi/operation.js';

const when = v.pipe(v.string(), v.isoTimestamp());
const nullableString = (description: string) => v.pipe(v.nullable(v.string()), v.description(description));

/** The body of pause and resume: an optional note; an empty body is fine. */
export const PauseBody = v.optional(v.object({ note: v.optional(AutomationNote) }), {});

export const AutomationParams = v.object({
  projectId: v.pipe(v.string(), v.minLength(1), v.description('A project of the key’s organisation.')),
  automationId: v.pipe(v.string(), v.minLength(1), v.description('The automation id (`aut_…`).')),
});

/** The automation object of README's Automations section. */
export const AutomationViewSchema = v.object({
  id: v.pipe(v.string(), v.description('`aut_` and 12 characters.')),
  projectId: v.string(),
  scheduleId: v.pipe(v.string(), v.description('The Temporal Schedule’s id: `quire-automation-<project>-<id>`.')),
  cron: nullableString('Set when the automation fires by a cron expression.'),
  interval: nullableString('Set when it fires every interval (`90s`, `15m`, `2h`, `1d`).'),
  timezone: v.pipe(v.string(), v.description('The IANA zone the cron expression is read in (`UTC` by default).')),
  prompt: v.string(),
  model: nullableString('null: the project’s default model when it fires.'),
  asDraft: v.boolean(),
  createdAt: when,
  paused: v.pipe(v.boolean(), v.description('From the schedule; true also when its schedule was deleted outside Quire (the note says so).')),
  note: nullableString('The schedule’s note (why it is paused).'),
  nextRunTimes: v.pipe(v.array(when), v.description('The schedule’s next firings (empty while paused).')),
  lastRun: v.pipe(
    v.nullable(
      v.object({
        at: when,
        jobId: nullableString('The job it started; after a skip, the previous job.'),
        skipped: v.nullable(v.object({ code: v.picklist(Object.values(AUTOMATION_SKIP)), reason: v.string() })),
      }),
    ),
    v.description('What the latest firing or trigger did; null before the first.'),
  ),
});
sameType<v.InferOutput<typeof AutomationViewSchema>, AutomationView>(true);

export const AutomationListSchema = v.object({ automations: v.array(AutomationViewSchema) });
export const TriggeredSchema = v.object({ jobId: v.string(), job: JobViewSchema });
