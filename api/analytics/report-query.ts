import { decodeListCursor, InvalidAnalyticsCursorError, type ListCursor, type TimeRange } from '../../core/analytics/index.js';
import { badRequest } from '../http-error.js';

const DAY_MS = 86_400_000;

/**
 * The period of a report, as Mintlify's: `dateFrom` inclusive, `dateTo` exclusive (ISO 8601, or
 * YYYY-MM-DD meaning that day's midnight, UTC); by default the whole retention up to now.
 * Returned with both ends inclusive, as the store takes it.
 */
export function reportRange(q: { dateFrom?: string | undefined; dateTo?: string | undefined }, now: number, retentionDays: number): TimeRange {
  const from = q.dateFrom ? Date.parse(q.dateFrom) : now - retentionDays * DAY_MS;
  const to = q.dateTo ? Date.parse(q.dateTo) - 1 : now;
  // Only a contradiction the caller wrote is an error; a dateFrom past the default end is an empty period.
  if (q.dateFrom && q.dateTo && from > to) throw badRequest('invalid query: dateFrom: must be before dateTo', [{ path: 'dateFrom', message: 'must be before dateTo' }]);
  return { from, to };
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

/** A later page of an aggregated listing (searches, gaps): the first page's period, and the rows before it. */
export interface ReportCursor extends TimeRange {
  offset: number;
}

const invalidCursor = () => badRequest('invalid query: cursor: cursor is not one this API returned', [{ path: 'cursor', message: 'cursor is not one this API returned' }]);

/**
 * An aggregated listing's cursor. It keeps the first page's period: counted again over a period that
 * grows with every search or question, the rows move, and a later page would repeat or skip some.
 */
export function reportCursor(cursor: string | undefined): ReportCursor | undefined {
  if (cursor === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((n) => Number.isSafeInteger(n))) throw invalidCursor();
  const [from, to, offset] = parsed as [number, number, number];
  if (offset < 0) throw invalidCursor();
  return { from, to, offset };
}

export const encodeReportCursor = (cursor: ReportCursor): string => Buffer.from(JSON.stringify([cursor.from, cursor.to, cursor.offset])).toString('base64url');

/** One page of an aggregated listing, by offset. */
export function slice<T>(items: T[], offset: number, limit: number): { items: T[]; more: boolean } {
  return { items: items.slice(offset, offset + limit), more: offset + limit < items.length };
}

/** A UTC day's midnight as YYYY-MM-DD. */
export const isoDay = (day: number): string => new Date(day).toISOString().slice(0, 10);
