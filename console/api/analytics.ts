import type { Conversation, ConversationsResponse, Feedback, FeedbackResponse, GapsResponse, SearchesResponse, ThreadResponse, ViewsResponse, VisitorsResponse } from '../data/shapes.js';
import { normalizeThread } from '../data/conversations.js';
import { ApiError, request } from './client.js';

/** A report's period, as the analytics API takes it (`YYYY-MM-DD`, both days included). */
export interface Period {
  dateFrom: string;
  dateTo: string;
}

const base = (domain: string) => `/v1/analytics/${encodeURIComponent(domain)}`;

/** Follows `nextCursor` until `max` items are read or the listing ends. */
async function collect<T, R extends { nextCursor: string | null; hasMore: boolean }>(fetchPage: (cursor: string | undefined) => Promise<R>, items: (r: R) => T[], max: number): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    out.push(...items(page));
    cursor = page.hasMore && page.nextCursor ? page.nextCursor : undefined;
  } while (cursor && out.length < max);
  return out.slice(0, max);
}

export function conversations(domain: string, period: Period, max = 2000): Promise<Conversation[]> {
  return collect(
    (cursor) => request<ConversationsResponse>(`${base(domain)}/assistant`, { query: { ...period, limit: 1000, cursor } }),
    (r) => r.conversations,
    max,
  );
}

export function feedback(domain: string, period: Period, max = 1000): Promise<Feedback[]> {
  return collect(
    (cursor) => request<FeedbackResponse>(`${base(domain)}/feedback`, { query: { ...period, limit: 100, cursor } }),
    (r) => r.feedback,
    max,
  );
}

export function searches(domain: string, period: Period): Promise<SearchesResponse> {
  return request<SearchesResponse>(`${base(domain)}/searches`, { query: { ...period, limit: 50 } });
}

/** Page views or visitors; null when the server does not have the endpoint (404 on the route, not the domain). */
async function traffic<T>(domain: string, which: 'views' | 'visitors', period: Period): Promise<T | null> {
  try {
    return await request<T>(`${base(domain)}/${which}`, { query: { ...period, limit: 250 } });
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 405)) return null;
    throw err;
  }
}

export const views = (domain: string, period: Period) => traffic<ViewsResponse>(domain, 'views', period);
export const visitors = (domain: string, period: Period) => traffic<VisitorsResponse>(domain, 'visitors', period);

export async function thread(domain: string, threadId: string): Promise<ThreadResponse> {
  return normalizeThread(await request<unknown>(`${base(domain)}/assistant/threads/${encodeURIComponent(threadId)}`));
}

export function gaps(domain: string, period: Period): Promise<GapsResponse> {
  return request<GapsResponse>(`${base(domain)}/gaps`, { query: { ...period, limit: 50 } });
}

/** Starts an agent job on `projectId` prefilled from the gap; answers its id. */
export function fixGap(domain: string, gapId: string, body: { projectId: string; dateFrom?: string; dateTo?: string; asDraft?: boolean }): Promise<{ gapId: string; projectId: string; jobId: string }> {
  return request(`${base(domain)}/gaps/${encodeURIComponent(gapId)}/job`, { method: 'POST', body });
}
