/** A report's period as the console's date fields hold it: `YYYY-MM-DD`, both days included. */
export interface Period {
  dateFrom: string;
  dateTo: string;
}

const DAY_MS = 86_400_000;

/**
 * The period as query parameters. Mintlify's `dateTo` is exclusive, so the
 * day after the last one is sent; a server that reads a date-only `dateTo` as
 * its whole day then also counts that day, which has not happened yet.
 */
export function periodQuery(period: Period): Period {
  const next = Date.parse(`${period.dateTo}T00:00:00Z`) + DAY_MS;
  return { dateFrom: period.dateFrom, dateTo: Number.isNaN(next) ? period.dateTo : new Date(next).toISOString().slice(0, 10) };
}

/** The earliest year a period may start: anything before is a date still being typed (0002, 0020, 0202…). */
const FIRST_YEAR = 2000;
/** The longest period a report draws, one point a day. */
export const MAX_PERIOD_DAYS = 3 * 366;

/** The last `days` days up to today (UTC), both included. */
export function lastDays(days: number, now = new Date()): Period {
  return { dateFrom: new Date(now.getTime() - (days - 1) * DAY_MS).toISOString().slice(0, 10), dateTo: now.toISOString().slice(0, 10) };
}

/**
 * The period every report starts from: a month, long enough for the gaps to group a topic's
 * questions and short enough that the conversations of most domains are read whole.
 */
export const DEFAULT_PERIOD_DAYS = 30;

/** The period a URL's query names (`?from=YYYY-MM-DD&to=YYYY-MM-DD`), or undefined when it names none that can be reported. */
export function periodInQuery(search: string, now = new Date()): Period | undefined {
  const q = new URLSearchParams(search);
  const asked = { dateFrom: q.get('from') ?? '', dateTo: q.get('to') ?? '' };
  return periodProblem(asked, now) ? undefined : asked;
}

/** `search` with the period as its `from` and `to`, its other parameters kept: `?from=…&to=…`. */
/** Where a thread page leads back to: the report that opened it (`?back=gaps`), else Conversations; the rest of the query (the period, a filter) goes along. */
export function backFromThread(search: string): { href: string; label: string } {
  const q = new URLSearchParams(search);
  const gaps = q.get('back') === 'gaps';
  q.delete('back');
  const rest = q.toString() ? `?${q.toString()}` : '';
  return gaps ? { href: `/console/gaps${rest}`, label: 'Back to gaps' } : { href: `/console/conversations${rest}`, label: 'Back to conversations' };
}

export function withPeriod(search: string, period: Period): string {
  const q = new URLSearchParams(search);
  q.set('from', period.dateFrom);
  q.set('to', period.dateTo);
  return `?${q.toString()}`;
}

/**
 * Why a period cannot be reported, or undefined when it can: both dates whole, in a sane range, in
 * order and at most MAX_PERIOD_DAYS apart. A date field reports every complete date as it is typed
 * (the year 0002 on the way to 2025), and a report of two thousand years would hold the page.
 */
export function periodProblem(period: Period, now = new Date()): string | undefined {
  const lastYear = now.getUTCFullYear() + 1;
  for (const [name, value] of [['From', period.dateFrom], ['To', period.dateTo]] as const) {
    const year = /^(\d{4})-\d{2}-\d{2}$/.exec(value)?.[1];
    if (!year) return `${name}: choose a date`;
    if (Number(year) < FIRST_YEAR || Number(year) > lastYear) return `${name}: choose a year from ${FIRST_YEAR} to ${lastYear}`;
  }
  const days = (Date.parse(period.dateTo) - Date.parse(period.dateFrom)) / DAY_MS + 1;
  if (days < 1) return 'From must not be after To';
  if (days > MAX_PERIOD_DAYS) return `choose a period of at most ${MAX_PERIOD_DAYS} days`;
  return undefined;
}
