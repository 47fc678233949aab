import * as v from 'valibot';
import { AUTHENTICATED_GET_ERRORS, AUTHENTICATED_POST_ERRORS, RATE_LIMIT_HEADERS } from '../openapi/components.js';
import type { NamedSchemas, OperationSpec, ResponseSpec } from '../openapi/operation.js';
import { CORS_ERRORS, CORS_RESPONSE_HEADERS } from '../openapi/parameters.js';
import type { Schema } from '../openapi/types.js';
import {
  CallerStatsSchema,
  ClickBody,
  ConversationsQuery,
  ConversationsSchema,
  DomainParams,
  FeedbackBody,
  FeedbackByPageQuery,
  FeedbackByPageSchema,
  FeedbackQuery,
  FeedbackSchema,
  GapJobBody,
  GapJobHeaders,
  AnswerSource,
  GapJobSchema,
  GapParams,
  GapsQuery,
  GapsSchema,
  PageViewBody,
  PathTrafficSchema,
  PeriodQuery,
  QuestionsDaySchema,
  SearchesQuery,
  SearchesSchema,
  ThreadParams,
  ThreadSchema,
  TrafficDaySchema,
  TrafficQuery,
  TrafficSchema,
  ViewsSchema,
  VisitorsSchema,
} from './schemas.js';

const tags = ['analytics'];
const mintlify = { 'x-mintlify-compatible': true } as const;
const error = (description: string, headers: Record<string, Schema> = {}): ResponseSpec => ({
  description,
  headers,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
const OriginHeader = v.object({ Origin: v.optional(v.pipe(v.string(), v.description('The calling page’s origin, sent by browsers. A domain with `allowedOrigins` refuses others with 403.'))) });
/** A front-end's POST: its errors carry the CORS headers too (so a page can read them), but a refused origin's 403. */
const browserErrors = (forbidden: string): Pick<OperationSpec, 'errors' | 'errorHeaders'> & { responses: Record<number, ResponseSpec> } => ({
  errors: [400, 401, 404, 413, 415, 429, 500, 503],
  errorHeaders: CORS_ERRORS,
  responses: { 403: error(forbidden) },
});

const get = (path: string, operationId: string, summary: string, query: OperationSpec['params'], body: v.GenericSchema, extra: Partial<OperationSpec> = {}): OperationSpec => ({
  method: 'get',
  path,
  operationId,
  summary,
  tags,
  security: 'admin',
  params: query,
  responses: { 200: { description: summary, body } },
  errors: AUTHENTICATED_GET_ERRORS,
  extensions: mintlify,
  ...extra,
});

const feedbackErrors = browserErrors('A valid key of the other kind, or an `Origin` the domain does not allow (`forbidden`; no CORS header).');
const clickErrors = browserErrors('A valid key of the other kind, or an `Origin` the domain does not allow (`forbidden`; no CORS header).');
const beaconErrors = browserErrors('No `Origin` (not a page), an `Origin` the domain does not allow (no CORS header), or an admin key (`forbidden`).');

/**
 * Named in the document (`#/components/schemas/…`): the gap's job (answered whether it started one or found one),
 * a cited page (of a conversation and of a thread), the views and visitors reports' counts (site-wide, per path
 * and per day) and the caller stats' day.
 */
export const analyticsSchemas: NamedSchemas = {
  GapJob: GapJobSchema,
  AnswerSource,
  Traffic: TrafficSchema,
  PathTraffic: PathTrafficSchema,
  TrafficDay: TrafficDaySchema,
  QuestionsDay: QuestionsDaySchema,
};

/** The analytics API and the front-end endpoints that feed it, from the schemas the routes validate and answer with. */
export const analyticsOperations: OperationSpec[] = [
  get('/v1/analytics/{domain}/assistant', 'analyticsConversations', 'Assistant conversations, newest first', { path: DomainParams, query: ConversationsQuery }, ConversationsSchema),
  get(
    '/v1/analytics/{domain}/assistant/threads/{threadId}',
    'analyticsThread',
    'One assistant conversation thread: its messages in order',
    { path: ThreadParams },
    ThreadSchema,
    { description: 'Mintlify’s `AssistantThreadResponse`. An answer of a stateless door (OpenAI-compatible, MCP), looked up by its conversation `id`, is a thread of its own two messages.' },
  ),
  {
    method: 'delete',
    path: '/v1/analytics/{domain}/assistant/threads/{threadId}',
    operationId: 'analyticsEraseThread',
    summary: 'Erase one assistant conversation now: the thread, its answers and ratings',
    description:
      'Quire’s. For a reader who asks to have their conversation removed: the thread and its exchanges, and the answers and ratings analytics recorded of it, go at once (the daily counts, which name no one, stay). Takes a thread id.',
    tags,
    security: 'admin',
    params: { path: ThreadParams },
    responses: { 204: { description: 'Erased.' } },
    errors: AUTHENTICATED_GET_ERRORS,
  },
  get('/v1/analytics/{domain}/assistant/caller-stats', 'analyticsCallerStats', 'Assistant questions per caller type, and per day', { path: DomainParams, query: PeriodQuery }, CallerStatsSchema),
  get('/v1/analytics/{domain}/searches', 'analyticsSearches', 'Search terms, most searched first', { path: DomainParams, query: SearchesQuery }, SearchesSchema),
  get('/v1/analytics/{domain}/feedback', 'analyticsFeedback', 'Ratings of answers, newest first', { path: DomainParams, query: FeedbackQuery }, FeedbackSchema),
  get('/v1/analytics/{domain}/feedback/by-page', 'analyticsFeedbackByPage', 'Ratings per page the readers were on', { path: DomainParams, query: FeedbackByPageQuery }, FeedbackByPageSchema),
  get('/v1/analytics/{domain}/views', 'analyticsViews', 'Page views, human and AI, per path and per day', { path: DomainParams, query: TrafficQuery }, ViewsSchema, {
    description:
      'Human views are the widget’s page-view beacons; AI views are what Quire served to machines: MCP requests, OpenAI-compatible completions, llms.txt and llms-full.txt, and page and search requests made without a listed `Origin`. Counted per UTC day: a period covers each day it touches.',
  }),
  get('/v1/analytics/{domain}/visitors', 'analyticsVisitors', 'Unique visitors, human and AI, per path and per day', { path: DomainParams, query: TrafficQuery }, VisitorsSchema, {
    description:
      'A visitor is a hash of a daily salt, the day, the address, the user agent and the domain; the salt is the server’s, never shown, and deleted the next day, so nothing stored leads back to an address. Visitors are distinct per UTC day and summed over the days of the period.',
  }),
  get('/v1/analytics/{domain}/gaps', 'analyticsGaps', 'Coverage gaps: unanswered and poorly rated questions grouped by topic', { path: DomainParams, query: GapsQuery }, GapsSchema, {
    description:
      'Two questions share a topic when their common terms (words, English stop words removed, endings cut, two-letter acronyms such as CI kept) hold at least 40% of their combined weight; a term weighs less the more of the period’s questions have it (past half of them), so function words of any language do not make a topic. Each connected group (questions linked directly or through others) is a gap. Largest first.',
    extensions: {},
  }),
  {
    method: 'post',
    path: '/v1/analytics/{domain}/gaps/{gapId}/job',
    operationId: 'analyticsGapJob',
    summary: 'Start an agent job that fills a coverage gap',
    description:
      'An ordinary agent job on the project, its prompt carrying the gap’s questions (in a block of quotes, each cut at 300 characters, that the agent is told are readers’ words, never instructions), nearest pages and suggestion. The gap lists the job and its `prLink`. The gap is looked up in the period given (default: the whole retention).',
    tags,
    security: 'admin',
    params: { path: GapParams, header: GapJobHeaders },
    body: GapJobBody,
    responses: {
      200: { description: 'The gap already has an active job: that job, and none started (a double click or a retry without a key starts one job)', body: GapJobSchema },
      201: { description: 'The job started (with an `Idempotency-Key` seen before: the job it started)', body: GapJobSchema, headers: RATE_LIMIT_HEADERS },
    },
    // 409: the project's delete has begun.
    errors: [...AUTHENTICATED_POST_ERRORS, 409, 422, 429],
  },
  {
    method: 'post',
    path: '/discovery/v1/assistant/{domain}/feedback',
    operationId: 'assistantFeedback',
    summary: 'Rate an answer (thumbs up or down)',
    description: 'Only the thread’s holder (its `threadKey`) may rate; one rating per message, a new one replaces it. Spends a unit of the assistant’s limits only when stored (204): a rating refused with any 4xx or 5xx (an unknown thread or answer, the database down) spends nothing and carries no `RateLimit-*` headers.',
    tags: ['analytics', 'browser'],
    security: 'assistant',
    params: { path: DomainParams, header: OriginHeader },
    body: FeedbackBody,
    ...feedbackErrors,
    responses: { 204: { description: 'Rating stored.', headers: { ...RATE_LIMIT_HEADERS, ...CORS_RESPONSE_HEADERS } }, ...feedbackErrors.responses },
  },
  {
    method: 'delete',
    path: '/discovery/v1/assistant/{domain}/threads/{threadId}',
    operationId: 'assistantEraseThread',
    summary: 'Erase the reader’s own thread now (its holder, by its key)',
    description:
      'The thread and its exchanges, and the answers and ratings analytics recorded of it, are deleted at once rather than at their retention. Only the holder of the thread (its key, in `X-Thread-Key`) may; a wrong key is 404, like an unknown thread. Spends a unit of the assistant’s limits only when erased (204): an erasure refused with any 4xx or 5xx spends nothing and carries no `RateLimit-*` headers.',
    tags: ['analytics', 'browser'],
    security: 'assistant',
    params: {
      path: v.object({ ...DomainParams.entries, threadId: v.pipe(v.string(), v.minLength(1), v.description('The thread’s id (the stream’s `X-Thread-Id`).')) }),
      header: v.object({ ...OriginHeader.entries, 'X-Thread-Key': v.pipe(v.string(), v.description('The thread’s key, as the stream’s `X-Thread-Key` gave it.')) }),
    },
    ...feedbackErrors,
    responses: { 204: { description: 'Erased.', headers: { ...RATE_LIMIT_HEADERS, ...CORS_RESPONSE_HEADERS } }, ...feedbackErrors.responses },
  },
  {
    method: 'post',
    path: '/discovery/v1/search/{domain}/click',
    operationId: 'searchClick',
    summary: 'Report a click on a search result',
    description: 'For the search analytics’ click-through rate. `searchId` is the `X-Search-Id` of the search response; a click on an unknown or expired search is ignored. Spends a unit of the organisation’s hourly assistant limit, as a search does, only when answered 204: a refused click spends nothing and carries no `RateLimit-*` headers.',
    tags: ['analytics', 'browser'],
    security: 'assistant',
    params: { path: DomainParams, header: OriginHeader },
    body: ClickBody,
    ...clickErrors,
    responses: { 204: { description: 'Click recorded (asynchronously).', headers: { ...RATE_LIMIT_HEADERS, ...CORS_RESPONSE_HEADERS } }, ...clickErrors.responses },
  },
  {
    method: 'post',
    path: '/discovery/v1/analytics/{domain}/page-view',
    operationId: 'pageViewBeacon',
    summary: 'Report a page view (the widget’s beacon)',
    description:
      'One per page view, sent with `navigator.sendBeacon`: the body is JSON, as `text/plain` or `application/json`; the public assistant key rides in it since a beacon sets no headers. No cookie is read or set; the address and user agent only make the day’s visitor hash. Spends a unit of the per-address limit only when answered 204: a refused beacon spends nothing and carries no `RateLimit-*` headers.',
    tags: ['analytics', 'browser'],
    security: 'none',
    params: { path: DomainParams, header: v.object({ Origin: v.pipe(v.string(), v.description('The page’s origin; required, and one the domain allows.')) }) },
    body: PageViewBody,
    ...beaconErrors,
    responses: { 204: { description: 'Recorded (asynchronously).', headers: { ...RATE_LIMIT_HEADERS, ...CORS_RESPONSE_HEADERS } }, ...beaconErrors.responses },
  },
];
