import * as v from 'valibot';
import { cronProblem, intervalSeconds, isTimeZone } from './timing.js';

const NOTE_CHARS = 500;

const prompt = v.pipe(
  v.string('prompt is required and must be a string'),
  v.minLength(1, 'prompt must not be empty'),
  v.check((text) => text.trim().length > 0, 'prompt must not be only whitespace'),
  v.maxLength(100_000, 'prompt must be at most 100000 characters'),
);

/** An operator's note, shown with the schedule in the Temporal UI (why it is paused, who owns it). */
export const AutomationNote = v.pipe(v.string('note must be a string'), v.maxLength(NOTE_CHARS, `note must be at most ${NOTE_CHARS} characters`));

/**
 * A new automation, as the API's body and the CLI's flags give it: exactly one of `cron` and
 * `interval`, checked here (not by the engine) so a mistake is a 400 naming the field.
 */
export function automationInputSchema(minIntervalSeconds: number) {
  return v.pipe(
    v.object({
      prompt,
      cron: v.optional(
        v.pipe(
          v.string('cron must be a string'),
          v.maxLength(200, 'cron must be at most 200 characters'),
          v.check((text) => cronProblem(text) === undefined, (issue) => `cron: ${cronProblem(String(issue.input)) ?? 'invalid'}`),
        ),
      ),
      interval: v.optional(
        v.pipe(
          v.string('interval must be a string such as 15m'),
          v.check(
            (text) => 'seconds' in intervalSeconds(text, minIntervalSeconds),
            (issue) => {
              const checked = intervalSeconds(String(issue.input), minIntervalSeconds);
              return `interval ${'problem' in checked ? checked.problem : 'is invalid'}`;
            },
          ),
        ),
      ),
      timezone: v.optional(v.pipe(v.string('timezone must be a string'), v.check(isTimeZone, 'timezone must be an IANA time zone such as Europe/Berlin'))),
      model: v.optional(v.pipe(v.string('model must be a string'), v.minLength(1, 'model must not be empty'))),
      asDraft: v.optional(v.boolean('asDraft must be true or false')),
      paused: v.optional(v.boolean('paused must be true or false')),
      note: v.optional(AutomationNote),
    }),
    v.forward(
      v.check((input) => (input.cron === undefined) !== (input.interval === undefined), 'give exactly one of cron and interval'),
      ['cron'],
    ),
    v.forward(
      v.check((input) => input.timezone === undefined || input.cron !== undefined, 'timezone applies to cron only'),
      ['timezone'],
    ),
  );
}

export type AutomationInput = v.InferOutput<ReturnType<typeof automationInputSchema>>;
