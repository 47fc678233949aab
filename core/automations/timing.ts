/**
 * When an automation fires: a standard five-field cron expression or an interval. Checked here so
 * a client gets a 400 naming its mistake instead of the engine's error.
 */

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface CronField {
  name: string;
  min: number;
  max: number;
  /** Three-letter names, the first one meaning `min`. */
  names?: string[];
}

const FIELDS: CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  // 7 is Sunday too, as in most crons.
  { name: 'day of week', min: 0, max: 7, names: DAYS },
];

/** The shorthands Temporal's cron parser knows. */
const SHORTHANDS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

function valueOf(text: string, field: CronField): number | undefined {
  const named = field.names?.indexOf(text.toUpperCase()) ?? -1;
  if (named >= 0) return field.min + named;
  if (!/^\d{1,2}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= field.min && n <= field.max ? n : undefined;
}

function itemProblem(item: string, field: CronField): string | undefined {
  const [range = '', step, extra] = item.split('/');
  if (extra !== undefined || (step !== undefined && !/^[1-9]\d{0,1}$/.test(step))) return `'${item}': a step is '/' and a number from 1 to 99`;
  if (range === '*') return undefined;
  const [from = '', to, more] = range.split('-');
  const low = valueOf(from, field);
  const high = to === undefined ? low : valueOf(to, field);
  if (more !== undefined || low === undefined || high === undefined) {
    return `'${item}' is not a ${field.name} (${field.min}-${field.max}${field.names ? ` or ${field.names[0]}-${field.names.at(-1)}` : ''})`;
  }
  if (high < low) return `'${item}': the range runs backwards`;
  return undefined;
}

/** What is wrong with a cron expression, or undefined when Temporal's parser will take it. */
export function cronProblem(expression: string): string | undefined {
  const text = expression.trim();
  if (text.startsWith('@')) return SHORTHANDS.has(text.toLowerCase()) ? undefined : `unknown shorthand '${text}'; one of ${[...SHORTHANDS].join(', ')}`;
  const fields = text.split(/\s+/);
  if (fields.length !== 5) return `expected 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`;
  for (const [i, part] of fields.entries()) {
    const field = FIELDS[i];
    if (!field) break;
    for (const item of part.split(',')) {
      const problem = itemProblem(item, field);
      if (problem) return `${field.name}: ${problem}`;
    }
  }
  return neverFires(fields[2]!, fields[3]!);
}

/** The days of February, March… a day of month must fit in one of (29: leap years have it). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The values a checked field's items name. */
function valuesOf(part: string, field: CronField): number[] {
  const values: number[] = [];
  for (const item of part.split(',')) {
    const [range = '', step = '1'] = item.split('/');
    const [from = '', to] = range.split('-');
    const low = range === '*' ? field.min : valueOf(from, field)!;
    const high = range === '*' ? field.max : to === undefined ? (item.includes('/') ? field.max : low) : valueOf(to, field)!;
    for (let v = low; v <= high; v += Number(step)) values.push(v);
  }
  return values;
}

/**
 * An expression whose days of month fall in none of its months (`0 0 30 2 *`, `0 0 31 4,6 *`):
 * accepted by the engine, it would never fire, and its automation never say why.
 */
function neverFires(days: string, months: string): string | undefined {
  const first = Math.min(...valuesOf(days, FIELDS[2]!));
  const inMonths = valuesOf(months, FIELDS[3]!);
  if (inMonths.some((month) => first <= MONTH_DAYS[month - 1]!)) return undefined;
  return `day of month ${first} falls in none of its months: the schedule would never fire`;
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
const MAX_INTERVAL_SECONDS = 366 * 86_400;

/** An interval like `90s`, `15m`, `2h`, `1d` in seconds, or the rule it breaks. */
export function intervalSeconds(text: string, minSeconds: number): { seconds: number } | { problem: string } {
  const match = /^(\d{1,7})([smhd])$/.exec(text.trim());
  const seconds = match?.[1] && match[2] ? Number(match[1]) * (UNIT_SECONDS[match[2]] ?? 0) : 0;
  if (!match || seconds === 0) return { problem: 'must be a whole number and a unit: 90s, 15m, 2h or 1d' };
  if (seconds < minSeconds) return { problem: `must be at least ${minSeconds}s (QUIRE_AUTOMATION_MIN_INTERVAL_SECONDS)` };
  if (seconds > MAX_INTERVAL_SECONDS) return { problem: 'must be at most 366d' };
  return { seconds };
}

/**
 * The canonical name of a time zone the runtime knows: the runtime matches names case-insensitively
 * and by alias (`europe/berlin`, `US/Eastern`), Temporal's server only as the tz database spells
 * them, and refused the rest with an error the API could not tell from its own.
 */
export function canonicalTimeZone(name: string): string {
  return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
}

/** Whether the runtime knows this IANA time zone (Temporal's server reads the same tz database names). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
