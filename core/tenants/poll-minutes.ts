import * as v from 'valibot';

/** The bounds of a domain's `pollMinutes`: no tighter than 5 minutes (a forge's patience), at least daily. */
export const POLL_MINUTES = { min: 5, max: 1440 } as const;

/** A domain's poll interval in whole minutes, as the admin API, the CLI and the seed file take it. */
export const pollMinutesSchema = v.pipe(
  v.number(),
  v.integer('must be a whole number of minutes'),
  v.minValue(POLL_MINUTES.min, `must be at least ${POLL_MINUTES.min} minutes`),
  v.maxValue(POLL_MINUTES.max, `must be at most ${POLL_MINUTES.max} minutes (a day)`),
);
