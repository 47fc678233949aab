import type { CallerStats, Conversation, ConversationsResponse, Feedback, FeedbackResponse, DayTraffic, GapsResponse, PathTraffic, SearchesResponse, ThreadResponse, ViewsResponse, VisitorsResponse } from '../data/shapes.js';
import { periodQuery, type Period } from '../data/period.js';
import { ApiError, request } from './client.js';
import type { RequestOf, ResponseOf } from './responses.js';

export type { Period };

const base = (domain: string) => `/v1/analytics/${encodeURIComponent(domain)}`;

/** The first `max` items of a listing, and whether it holds more than that. */
export interface Listing<T> {
  items: T[];
  more: boolean;
}

/** Follows `nextCursor` until `max` items are read or the listing ends. */
async function collect<T, R extends { nextCursor: string | null; hasMore: boolean }>(fetchPage: (cursor: string | undefined) => Promise<R>, items: (r: R) => T[], max: number): Promise<Listing<T>> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    out.push(...items(page));
    cursor = page.hasMore && page.nextCursor ? page.nextCursor : undefined;
  } while (cursor && out.length < max);
  return { items: out.slice(0, max), more: out.length > max || cursor !== undefined };
}

export function conversations(domain: string, period: Period, max = 2000): Promise<Listing<Conversation>> {
  return collect(
    (cursor) => request<ConversationsResponse>(`${base(domain)}/assistant`, { query: { ...periodQuery(period), limit: 1000, cursor } }),
    (r) => r.conversations,
    max,
  );
}

export function feedback(domain: string, period: Period, max = 1000): Promise<Listing<Feedback>> {
  return collect(
    (cursor) => request<FeedbackResponse>(`${base(domain)}/feedback`, { query: { ...periodQuery(period), limit: 100, cursor } }),
    (r) => r.feedback,
    max,
  );
}

export function searches(domain: string, period: Period): Promise<SearchesResponse> {
  return request<SearchesResponse>(`${base(domain)}/searches`, { query: { ...periodQuery(period), limit: 50 } });
}

/** What a server that has not got an endpoint answers: null rather than an error, so the page says "no data". */
async function unlessMissing<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 405)) return null;
    throw err;
  }
}

export type TrafficReport = { rows: PathTraffic[]; days?: DayTraffic[] };

/** Page views (Mintlify's `views`), per page and, when the server sends them, per day; null without the endpoint. */
export async function views(domain: string, period: Period): Promise<TrafficReport | null> {
  const r = await unlessMissing(() => request<ViewsResponse>(`${base(domain)}/views`, { query: { ...periodQuery(period), limit: 250 } }));
  return r && { rows: r.views, ...(r.days ? { days: r.days } : {}) };
}

/** Visitors (Mintlify's `visitors`), like `views`. */
export async function visitors(domain: string, period: Period): Promise<TrafficReport | null> {
  const r = await unlessMissing(() => request<VisitorsResponse>(`${base(domain)}/visitors`, { query: { ...periodQuery(period), limit: 250 } }));
  return r && { rows: r.visitors, ...(r.days ? { days: r.days } : {}) };
}

export function callerStats(domain: string, period: Period): Promise<CallerStats> {
  return request<CallerStats>(`${base(domain)}/assistant/caller-stats`, { query: { ...periodQuery(period) } });
}

export function thread(domain: string, threadId: string): Promise<ThreadResponse> {
  return request<ThreadResponse>(`${base(domain)}/assistant/threads/${encodeURIComponent(threadId)}`);
}

/** A page of the period's gaps, largest first; `cursor` is the `nextCursor` of the page before. */
export function gaps(domain: string, period: Period, cursor?: string): Promise<GapsResponse> {
  return request<GapsResponse>(`${base(domain)}/gaps`, { query: { ...periodQuery(period), limit: 50, cursor } });
}

/** Starts an agent job on `projectId` prefilled from the gap (found in `period`, as listed); answers its id. */
export function fixGap(domain: string, gapId: string, period: Period, body: Pick<RequestOf<'analyticsGapJob'>, 'projectId' | 'asDraft'>): Promise<ResponseOf<'analyticsGapJob'>> {
  return request(`${base(domain)}/gaps/${encodeURIComponent(gapId)}/job`, { method: 'POST', body: { ...body, ...periodQuery(period) } });
}
