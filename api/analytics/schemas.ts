import * as v from 'valibot';

/**
 * The analytics API's shapes, one schema each for the route's validation, its type and the
 * OpenAPI document. Field names and types follow Mintlify's analytics API
 * (`analytics.openapi.json`); fields Mintlify does not have are Quire's, marked so.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;
const QUIRE = 'Quire’s own (not in Mintlify’s API).';

/**
 * Whether every part of an ISO date is in its range: `Date.parse` takes February 30th, June 31st
 * and 24:00 and moves them into the next day or month, a period the caller did not ask for.
 */
export function isCalendarDate(text: string): boolean {
  const [, year, month, day, hour = '0', minute = '0', second = '0', offsetHours = '0', offsetMinutes = '0'] = ISO_DATE.exec(text) ?? [];
  if (year === undefined || month === undefined || day === undefined) return false;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return (
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day) &&
    Number(hour) < 24 &&
    Number(minute) < 60 &&
    Number(second) < 60 &&
    Number(offsetHours) < 24 &&
    Number(offsetMinutes) < 60
  );
}

const date = (description: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(ISO_DATE, 'must be a date in ISO 8601 or YYYY-MM-DD format'),
      v.check(isCalendarDate, 'must be a date that exists (month 01–12, a day of that month, time before 24:00)'),
      v.description(description),
      v.examples(['2026-01-01']),
    ),
  );

/** `dateFrom` and `dateTo`, as Mintlify's: the start inclusive, the end exclusive. */
export const period = {
  dateFrom: date('Start of the period, inclusive: ISO 8601 or YYYY-MM-DD (its midnight, UTC). Default: the start of the retention.'),
  dateTo: date('End of the period, exclusive: results are before, not on, this date. ISO 8601 or YYYY-MM-DD. Default: now.'),
};

/** A whole number from `min` to `max` in a query string; `fallback` when absent. */
const wholeNumber = (name: string, min: number, max: number, fallback: number, description: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,9}$/, `${name} must be a whole number from ${min} to ${max}`),
      v.description(description),
      v.transform(Number),
      v.minValue(min, `${name} must be a whole number from ${min} to ${max}`),
      v.maxValue(max, `${name} must be a whole number from ${min} to ${max}`),
    ),
    String(fallback),
  );

export const limitParam = (max: number, fallback: number) => wholeNumber('limit', 1, max, fallback, `Max results per page: 1–${max}, default ${fallback}.`);
const cursor = v.optional(v.pipe(v.string(), v.maxLength(512), v.description('Pagination cursor: the `nextCursor` of the previous page.')));

export const FEEDBACK_SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only'] as const;
export const FEEDBACK_STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'] as const;
const source = v.optional(
  v.pipe(
    v.picklist(FEEDBACK_SOURCES, `source must be one of ${FEEDBACK_SOURCES.join(', ')}`),
    v.description('Filter by feedback source. Quire’s ratings of answers are `contextual`; other sources match nothing.'),
  ),
);
const status = v.optional(
  v.pipe(
    v.string(),
    v.regex(new RegExp(`^(${FEEDBACK_STATUSES.join('|')})(,(${FEEDBACK_STATUSES.join('|')}))*$`), `status must be a comma-separated list of ${FEEDBACK_STATUSES.join(', ')}`),
    v.description('Comma-separated statuses to filter by. Quire does not review ratings: every one is `pending`.'),
  ),
);

export const DomainParams = v.object({ domain: v.pipe(v.string(), v.minLength(1), v.description('A domain of the key’s organisation.')) });
export const ThreadParams = v.object({
  ...DomainParams.entries,
  threadId: v.pipe(v.string(), v.minLength(1), v.description('A thread id (the assistant stream’s `X-Thread-Id`), or the `id` of a row of the conversations listing.')),
});
export const GapParams = v.object({ ...DomainParams.entries, gapId: v.pipe(v.string(), v.minLength(1), v.description('A gap id from the gaps listing.')) });

export const PeriodQuery = v.object(period);
export const ConversationsQuery = v.object({ ...period, limit: limitParam(1000, 100), cursor });
export const FeedbackQuery = v.object({ ...period, source, status, limit: limitParam(100, 50), cursor });
export const FeedbackByPageQuery = v.object({ ...period, limit: limitParam(100, 10), source, status });
/** The cursor of a listing counted over the period: it keeps the first page's period, so what arrives meanwhile moves no row. */
const frozenCursor = v.optional(
  v.pipe(
    v.string(),
    v.maxLength(512),
    v.description('Pagination cursor: the `nextCursor` of the previous page. It keeps the first page’s period (`dateFrom`, `dateTo` and the default end, now): what is recorded later does not move rows between pages.'),
  ),
);
export const SearchesQuery = v.object({ ...period, limit: limitParam(100, 50), cursor: frozenCursor });
export const TrafficQuery = v.object({
  ...period,
  limit: limitParam(250, 50),
  offset: wholeNumber('offset', 0, 1_000_000_000, 0, 'Rows to skip: increment by `limit` while `hasMore` is true.'),
});
export const GapsQuery = v.object({ ...period, limit: limitParam(100, 20), cursor: frozenCursor });

const id = (max: number) => v.pipe(v.string('is required and must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(max, `must be at most ${max} characters`));

export const FeedbackBody = v.object({
  threadId: id(128),
  threadKey: id(256),
  messageId: id(128),
  helpful: v.boolean('is required and must be true or false'),
  comment: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.maxLength(2000, 'must be at most 2000 characters')))),
});

export const ClickBody = v.object({
  searchId: v.pipe(id(128), v.regex(/^srch_[0-9a-f-]{36}$/, 'must be the X-Search-Id of a search response')),
  path: v.pipe(id(500), v.regex(/^\//, 'must be a page path starting with /')),
});

/** The widget's page-view beacon: the public assistant key rides in the body (`navigator.sendBeacon` sets no headers). */
export const PageViewBody = v.object({
  key: v.pipe(id(256), v.description('The domain’s assistant key (`quire_dsc_…`), public like the widget’s.')),
  path: v.pipe(id(500), v.regex(/^\/[^?#\s]*$/, 'must be a page path starting with /, without query or fragment'), v.description('`location.pathname` of the page viewed.')),
});

export const GapJobHeaders = v.object({
  'Idempotency-Key': v.optional(
    v.pipe(
      v.string(),
      v.description(
        'Names the request so a retry makes one job: a repeat answers the job the key made, as it is now; the same key for another gap is refused (422). Honoured when it matches `^[A-Za-z0-9._:-]{8,128}$`, else ignored.',
      ),
    ),
  ),
});

export const GapJobBody = v.object({
  projectId: id(128),
  ...period,
  asDraft: v.optional(v.boolean('must be true or false')),
});

const dateTime = v.pipe(v.string(), v.isoTimestamp());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const page = { nextCursor: v.pipe(v.nullable(v.string()), v.description('Cursor of the next page; null when there is none.')), hasMore: v.boolean() };
/** A page an answer cited. */
export const AnswerSource = v.object({ title: v.string(), url: v.string() });

export const ConversationSchema = v.object({
  id: v.pipe(v.string(), v.description('The answer’s id; the thread endpoint takes it too.')),
  timestamp: dateTime,
  query: v.string(),
  response: v.pipe(v.string(), v.description('The answer as far as it streamed (with the closing suggestions block).')),
  sources: v.array(AnswerSource),
  resolutionStatus: v.picklist(['answered', 'unanswered']),
  queryCategory: v.pipe(v.nullable(v.string()), v.description('The first path segment of the best source (`/guides/deploy` → `guides`).')),
  responseType: v.pipe(v.picklist(['model', 'extractive']), v.description(QUIRE)),
  unansweredReason: v.pipe(
    v.nullable(v.picklist(['no_passages', 'no_citation', 'no_match', 'failed'])),
    v.description(`${QUIRE} \`no_passages\`: retrieval found nothing; \`no_citation\`: the model cited no passage; \`no_match\`: without a model, nothing in the pages found shares a word with the question; \`failed\`: the answer broke off.`),
  ),
  pageUrl: v.pipe(v.nullable(v.string()), v.description(`${QUIRE} The page the reader was on.`)),
  threadId: v.pipe(v.nullable(v.string()), v.description(`${QUIRE} Null on the stateless doors (OpenAI-compatible, MCP).`)),
  surface: v.pipe(v.picklist(['assistant', 'openai', 'mcp']), v.description(QUIRE)),
  callerKind: v.pipe(v.picklist(['browser', 'server', 'other']), v.description(`${QUIRE} \`browser\`: an origin the domain lists; \`server\`: no \`Origin\`; \`other\`: any other origin.`)),
  fp: v.pipe(v.nullable(v.string()), v.description(QUIRE)),
});
export const ConversationsSchema = v.object({ conversations: v.array(ConversationSchema), ...page });

export const ThreadMessageSchema = v.object({
  id: v.string(),
  role: v.picklist(['user', 'assistant']),
  content: v.string(),
  createdAt: dateTime,
  sources: v.pipe(v.optional(v.array(AnswerSource)), v.description(`${QUIRE} On assistant messages: the pages the answer cited.`)),
  feedback: v.pipe(
    v.optional(v.nullable(v.object({ helpful: v.boolean(), comment: v.nullable(v.string()), createdAt: dateTime }))),
    v.description(`${QUIRE} On assistant messages: the reader’s rating, or null.`),
  ),
});
/** Mintlify's `AssistantThreadResponse`: the messages in order, the reader's and the assistant's. */
export const ThreadSchema = v.object({ threadId: v.string(), createdAt: dateTime, messages: v.array(ThreadMessageSchema) });

const day = v.pipe(v.string(), v.isoDate(), v.description('The UTC day, YYYY-MM-DD.'));
/** The days of a report, each shaped as `item` (one named schema, referred to from each report that has days). */
const perDay = <T extends v.GenericSchema>(item: T) => v.pipe(v.array(item), v.description(`${QUIRE} One entry per UTC day of the period that has any, oldest first.`));

/** A day's assistant questions, answered or not (`days` of the caller stats). */
export const QuestionsDaySchema = v.object({ date: day, total: count, answered: count, unanswered: count });

export const CallerStatsSchema = v.object({
  web: v.pipe(count, v.description('Questions from the documentation site: pages on an origin the domain lists.')),
  api: v.pipe(count, v.description('Questions from direct API calls (no `Origin`).')),
  other: v.pipe(count, v.description('Questions from any other origin.')),
  total: count,
  dateFrom: v.pipe(dateTime, v.description(QUIRE)),
  dateTo: v.pipe(dateTime, v.description(`${QUIRE} Exclusive.`)),
  answered: v.pipe(count, v.description(QUIRE)),
  unanswered: v.pipe(count, v.description(QUIRE)),
  callers: v.pipe(
    v.array(v.object({ callerKind: v.picklist(['browser', 'server', 'other']), surface: v.picklist(['assistant', 'openai', 'mcp']), total: count, answered: count, unanswered: count })),
    v.description(`${QUIRE} Per caller kind and door, most first.`),
  ),
  days: perDay(QuestionsDaySchema),
});

export const SearchesSchema = v.object({
  searches: v.array(
    v.object({
      searchQuery: v.pipe(v.string(), v.description('The term, as most readers wrote it: spellings that differ only in case or spacing are one term.')),
      hits: v.pipe(count, v.description('Times this term was searched.')),
      ctr: v.pipe(v.number(), v.minValue(0), v.maxValue(1), v.description('Share of its searches with a reported click on a result.')),
      topClickedPage: v.nullable(v.string()),
      lastSearchedAt: dateTime,
      averageResults: v.pipe(v.number(), v.minValue(0), v.description(`${QUIRE} Results per search, on average.`)),
    }),
  ),
  totalSearches: v.pipe(count, v.description('Search events in the period (the sum of `hits`, not distinct terms).')),
  ...page,
});

export const FeedbackItemSchema = v.object({
  id: v.string(),
  path: v.pipe(v.string(), v.description('The page the reader was on when asking; empty when unknown.')),
  comment: v.nullable(v.string()),
  createdAt: v.nullable(dateTime),
  source: v.pipe(v.literal('contextual'), v.description('Quire’s ratings are of answers, with a helpful flag: `contextual`.')),
  status: v.pipe(v.literal('pending'), v.description('Quire does not review ratings.')),
  helpful: v.boolean(),
  contact: v.pipe(v.null(), v.description('Quire never asks readers for an address.')),
  threadId: v.pipe(v.string(), v.description(QUIRE)),
  messageId: v.pipe(v.string(), v.description(`${QUIRE} The rated answer.`)),
  query: v.pipe(v.nullable(v.string()), v.description(`${QUIRE} The rated answer’s question (null once it is past retention).`)),
});
export const FeedbackSchema = v.object({ feedback: v.array(FeedbackItemSchema), ...page });

export const FeedbackByPageSchema = v.object({
  feedback: v.array(v.object({ path: v.pipe(v.string(), v.description('Empty for ratings whose page is unknown.')), thumbsUp: count, thumbsDown: count, code: count, total: count })),
  hasMore: v.boolean(),
});

/** Page views or visitors, human and AI: the views and visitors reports' one shape, named (`Traffic`, `PathTraffic`, `TrafficDay`). */
export const TrafficSchema = v.object({ human: count, ai: count, total: count });
export const PathTrafficSchema = v.object({ path: v.string(), ...TrafficSchema.entries });
export const TrafficDaySchema = v.object({ date: day, ...TrafficSchema.entries });
const pathTraffic = (what: string) => v.pipe(v.array(PathTrafficSchema), v.description(`${what} per path, most first.`));
// `totals` is a `$ref`, which takes no description of its own here: the report's description says what it counts.
export const ViewsSchema = v.pipe(
  v.object({ totals: TrafficSchema, views: pathTraffic('Page views'), hasMore: v.boolean(), days: perDay(TrafficDaySchema) }),
  v.description('`totals`: site-wide page views of the period.'),
);
/** Visitors are distinct per UTC day (hashes rotate daily); `total` counts a visitor seen as both human and AI once. */
export const VisitorsSchema = v.pipe(
  v.object({ totals: TrafficSchema, visitors: pathTraffic('Visitors'), hasMore: v.boolean(), days: perDay(TrafficDaySchema) }),
  v.description('`totals`: site-wide visitors of the period.'),
);

export const GapSchema = v.object({
  id: v.pipe(
    v.string(),
    v.description('Derived from the gap’s earliest question: new questions joining the gap keep it. When gaps merge, the ids of each remain valid for the job endpoint.'),
  ),
  topic: v.array(v.string()),
  count,
  unanswered: count,
  notHelpful: count,
  questions: v.pipe(v.array(v.string()), v.maxLength(10), v.description('Its distinct questions, newest first (at most 10).')),
  examples: v.pipe(
    v.array(
      v.object({
        question: v.string(),
        threadId: v.pipe(
          v.nullable(v.string()),
          v.description('The newest assistant thread that asked it (`GET …/assistant/threads/{threadId}`); null when only the OpenAI-compatible or MCP doors, which keep no thread, asked it.'),
        ),
      }),
    ),
    v.maxLength(10),
    v.description('`questions`, in the same order, each with its thread.'),
  ),
  pages: v.pipe(
    v.array(v.object({ title: v.string(), url: v.string(), path: v.string() })),
    v.description('The pages its answers cited most, at most three; none from answers that share no word with the pages they found (`no_match`).'),
  ),
  suggestion: v.pipe(v.string(), v.description('Extend the nearest page, or, with none, add a page about the topic.')),
  lastAskedAt: dateTime,
  jobs: v.array(v.object({ jobId: v.string(), projectId: v.string(), status: v.string(), prLink: v.nullable(v.string()) })),
});
export const GapsSchema = v.object({ gaps: v.array(GapSchema), ...page });
export const GapJobSchema = v.object({ gapId: v.string(), projectId: v.string(), jobId: v.string() });

export type GapView = v.InferOutput<typeof GapSchema>;
export type Conversation = v.InferOutput<typeof ConversationSchema>;
export type ThreadResponse = v.InferOutput<typeof ThreadSchema>;
export type ThreadMessage = v.InferOutput<typeof ThreadMessageSchema>;
export type CallerStats = v.InferOutput<typeof CallerStatsSchema>;
export type FeedbackItem = v.InferOutput<typeof FeedbackItemSchema>;
