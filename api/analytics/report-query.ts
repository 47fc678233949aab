import * as v from 'valibot';
import { decodeListCursor, InvalidAnalyticsCursorError, type ListCursor, type TimeRange } from '../../core/analytics/index.js';
import { badRequest } from '../http-error.js';
import { parseInput } from '../validation.js';

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

const dateParam = v.optional(v.pipe(v.string(), v.regex(ISO_DATE, 'must be a date in ISO 8601 or YYYY-MM-DD format'), v.check((s) => !Number.isNaN(Date.parse(s)), 'must be a valid date')));

const limitParam = (max: number) =>
  v.optional(v.pipe(v.string(), v.regex(/^\d{1,7}$/, `must be an integer 1–${max}`), v.transform(Number), v.minValue(1, `must be an integer 1–${max}`), v.maxValue(max, `must be an integer 1–${max}`)));

const ReportQuery = v.object({ dateFrom: dateParam, dateTo: dateParam });

export interface PageParams {
  range: TimeRange;
  limit: number;
  cursor: string | undefined;
}

/**
 * The period of a report: `dateFrom` and `dateTo` (ISO 8601, or YYYY-MM-DD
 * meaning the whole day), both inclusive; by default the whole retention up to now.
 */
export function reportRange(query: unknown, now: number, retentionDays: number, where: 'query' | 'body' = 'query'): TimeRange {
  const q = parseInput(ReportQuery, query, where);
  const from = q.dateFrom ? Date.parse(q.dateFrom) : now - retentionDays * DAY_MS;
  const to = q.dateTo ? Date.parse(q.dateTo) + (DATE_ONLY.test(q.dateTo) ? DAY_MS - 1 : 0) : now;
  // Only a contradiction the caller wrote is an error; a dateFrom past the default end is an empty period.
  if (q.dateFrom && q.dateTo && from > to) throw badRequest(`invalid ${where}: dateFrom: must not be after dateTo`, [{ path: 'dateFrom', message: 'must not be after dateTo' }]);
  return { from, to };
}

/** A listing's period, page size (`limit`, default `fallback`, at most `max`) and raw cursor. */
export function pageParams(query: unknown, now: number, retentionDays: number, max: number, fallback: number): PageParams {
  const q = parseInput(v.object({ limit: limitParam(max), cursor: v.optional(v.pipe(v.string(), v.maxLength(512))) }), query, 'query');
  return { range: reportRange(query, now, retentionDays), limit: q.limit ?? fallback, cursor: q.cursor };
}

/** A time-ordered listing's cursor; one this API did not return is a 400. */
export function listCursor(cursor: string | undefined): ListCursor | undefined {
  if (cursor === undefined) return undefined;
  try {
    return decodeListCursor(cursor);
  } catch (err) {
    if (err instanceof InvalidAnalyticsCursorError) throw badRequest(`invalid query: cursor: ${err.message}`, [{ path: 'cursor', message: err.message }]);
    throw err;
  }
}

/** An offset cursor, for the aggregated listings (searches, gaps). */
export function offsetCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^o:(\d{1,9})$/.exec(text);
  if (!match) throw badRequest('invalid query: cursor: cursor is not one this API returned', [{ path: 'cursor', message: 'cursor is not one this API returned' }]);
  return Number(match[1]);
}

export const encodeOffset = (offset: number): string => Buffer.from(`o:${offset}`).toString('base64url');
