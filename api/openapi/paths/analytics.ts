import { AUTHENTICATED_GET_ERRORS, AUTHENTICATED_POST_ERRORS, COMMON_HEADERS, errorResponse, errorResponses, jsonResponse, pathParameter, RATE_LIMIT_HEADERS } from '../components.js';
import type { PathItems, Schema } from '../types.js';
import { corsResponseHeaders, originParameter } from './browser.js';
import { ThreadSchema } from '../../threads/schema.js';
import { jsonSchemaOf } from '../operation.js';

/** The admin thread view (api/threads) with `extra` required properties (its recorded answers). */
function threadSchema(extra: Record<string, Schema>): Schema {
  const thread = jsonSchemaOf(ThreadSchema) as { required: string[]; properties: Record<string, Schema> };
  return { ...thread, required: [...thread.required, ...Object.keys(extra)], properties: { ...thread.properties, ...extra } };
}

const domain = pathParameter('domain', 'A domain of the key’s organisation.');
const nullableString: Schema = { type: ['string', 'null'] };
const date = (name: string, end: string): Schema => ({
  name,
  in: 'query',
  required: false,
  description: `${end} of the period, inclusive: ISO 8601 or YYYY-MM-DD (the whole day). Without it: ${name === 'dateFrom' ? 'the start of the retention' : 'now'}.`,
  schema: { type: 'string', examples: ['2026-01-01'] },
});
const period = [date('dateFrom', 'Start'), date('dateTo', 'End')];
const paging = (max: number, fallback: number): Schema[] => [
  ...period,
  { name: 'limit', in: 'query', required: false, description: 'Items per page.', schema: { type: 'integer', minimum: 1, maximum: max, default: fallback } },
  { name: 'cursor', in: 'query', required: false, description: 'The `nextCursor` of the previous page.', schema: { type: 'string', maxLength: 512 } },
];
const pageOf = (field: string, item: Schema, extra: Record<string, Schema> = {}): Schema => ({
  type: 'object',
  required: [field, 'nextCursor', 'hasMore', ...Object.keys(extra)],
  properties: { [field]: { type: 'array', items: item }, nextCursor: nullableString, hasMore: { type: 'boolean' }, ...extra },
});
const admin = [{ adminKey: [] }];
const adminGet = (operationId: string, summary: string, parameters: Schema[], body: Schema, description?: string) => ({
  get: {
    operationId,
    summary,
    ...(description ? { description } : {}),
    tags: ['analytics'],
    security: admin,
    parameters: [domain, ...parameters],
    responses: { '200': jsonResponse(summary, body), ...errorResponses(...AUTHENTICATED_GET_ERRORS) },
  },
});

const conversation: Schema = {
  type: 'object',
  required: ['id', 'timestamp', 'query', 'response', 'responseType', 'sources', 'resolutionStatus', 'unansweredReason', 'queryCategory', 'pageUrl', 'threadId', 'surface', 'callerKind', 'fp'],
  properties: {
    id: { type: 'string', description: 'The answer’s message id.' },
    timestamp: { type: 'string', format: 'date-time' },
    query: { type: 'string' },
    response: { type: 'string', description: 'The answer as far as it streamed (without the closing suggestions block).' },
    responseType: { enum: ['model', 'extractive'] },
    sources: { type: 'array', items: { type: 'object', required: ['title', 'url'], properties: { title: { type: 'string' }, url: { type: 'string' } } } },
    resolutionStatus: { enum: ['answered', 'unanswered'] },
    unansweredReason: {
      enum: ['no_passages', 'no_citation', 'failed', null],
      description: '`no_passages`: retrieval found nothing; `no_citation`: the model cited no passage (it says the docs do not cover the question); `failed`: the answer broke off.',
    },
    queryCategory: { ...nullableString, description: 'The first path segment of the best source (`/guides/deploy` → `guides`).' },
    pageUrl: { ...nullableString, description: 'The page the reader was on (`currentPath` on the domain’s site).' },
    threadId: nullableString,
    surface: { enum: ['assistant', 'openai', 'mcp'] },
    callerKind: { enum: ['browser', 'server', 'other'], description: '`browser`: an origin the domain lists; `server`: no `Origin`; `other`: any other origin.' },
    fp: nullableString,
  },
};

const feedbackItem: Schema = {
  type: 'object',
  required: ['id', 'path', 'comment', 'createdAt', 'helpful', 'threadId', 'messageId', 'query'],
  properties: {
    id: { type: 'string' },
    path: { ...nullableString, description: 'The page the reader was on when asking.' },
    comment: nullableString,
    createdAt: { type: 'string', format: 'date-time' },
    helpful: { type: 'boolean' },
    threadId: { type: 'string' },
    messageId: { type: 'string' },
    query: { ...nullableString, description: 'The rated answer’s question (null once the answer is past retention).' },
  },
};

const count: Schema = { type: 'integer', minimum: 0 };
const gap: Schema = {
  type: 'object',
  required: ['id', 'topic', 'count', 'unanswered', 'notHelpful', 'questions', 'pages', 'suggestion', 'lastAskedAt', 'jobs'],
  properties: {
    id: { type: 'string', description: 'Derived from the topic’s terms; stable while the topic is.' },
    topic: { type: 'array', items: { type: 'string' } },
    count,
    unanswered: count,
    notHelpful: count,
    questions: { type: 'array', items: { type: 'string' }, maxItems: 10 },
    pages: { type: 'array', items: { type: 'object', required: ['title', 'url', 'path'], properties: { title: { type: 'string' }, url: { type: 'string' }, path: { type: 'string' } } } },
    suggestion: { type: 'string' },
    lastAskedAt: { type: 'string', format: 'date-time' },
    jobs: {
      type: 'array',
      items: { type: 'object', required: ['jobId', 'projectId', 'status', 'prLink'], properties: { jobId: { type: 'string' }, projectId: { type: 'string' }, status: { type: 'string' }, prLink: nullableString } },
    },
  },
};

const jsonBody = (schema: Schema): Schema => ({ required: true, content: { 'application/json': { schema } } });
const noContent = (description: string): Schema => ({ description, headers: { ...COMMON_HEADERS, ...RATE_LIMIT_HEADERS, ...corsResponseHeaders } });
const browserErrors = (): Record<string, Schema> => {
  const errors: Record<string, Schema> = {
    ...errorResponses(...AUTHENTICATED_POST_ERRORS, 429),
    '403': errorResponse('A valid key of the other kind, or an `Origin` the domain does not allow (`forbidden`; no CORS header).'),
  };
  for (const [status, response] of Object.entries(errors)) {
    const headers = typeof response.headers === 'object' && response.headers !== null ? response.headers : {};
    if (status !== '403') errors[status] = { ...response, headers: { ...headers, ...corsResponseHeaders } };
  }
  return errors;
};

export const analyticsPaths: PathItems = {
  '/discovery/v1/assistant/{domain}/feedback': {
    post: {
      operationId: 'assistantFeedback',
      summary: 'Rate an answer (thumbs up or down)',
      description: 'Only the thread’s holder (its `threadKey`) may rate; one rating per message, a new one replaces it. Counts against the assistant’s limits.',
      tags: ['analytics', 'browser'],
      security: [{ assistantKey: [] }],
      parameters: [domain, originParameter],
      requestBody: jsonBody({
        type: 'object',
        required: ['threadId', 'threadKey', 'messageId', 'helpful'],
        properties: {
          threadId: { type: 'string', minLength: 1, maxLength: 128 },
          threadKey: { type: 'string', minLength: 1, maxLength: 256 },
          messageId: { type: 'string', minLength: 1, maxLength: 128 },
          helpful: { type: 'boolean' },
          comment: { type: ['string', 'null'], maxLength: 2000 },
        },
      }),
      responses: {
        '204': noContent('Rating stored.'),
        ...browserErrors(),
        '404': { ...errorResponse('Unknown domain, or no such message in a thread this key holds (`not_found`).'), headers: { ...COMMON_HEADERS, ...corsResponseHeaders } },
      },
    },
  },
  '/discovery/v1/search/{domain}/click': {
    post: {
      operationId: 'searchClick',
      summary: 'Report a click on a search result',
      description: 'For the search analytics’ click-through rate. `searchId` is the `X-Search-Id` of the search response; a click on an unknown or expired search is ignored.',
      tags: ['analytics', 'browser'],
      security: [{ assistantKey: [] }],
      parameters: [domain, originParameter],
      requestBody: jsonBody({
        type: 'object',
        required: ['searchId', 'path'],
        properties: { searchId: { type: 'string', pattern: '^srch_[0-9a-f-]{36}$' }, path: { type: 'string', minLength: 1, maxLength: 500, pattern: '^/' } },
      }),
      responses: { '204': noContent('Click recorded (asynchronously).'), ...browserErrors() },
    },
  },
  '/v1/analytics/{domain}/assistant': adminGet('analyticsConversations', 'Assistant conversations, newest first', paging(1000, 100), pageOf('conversations', conversation)),
  '/v1/analytics/{domain}/assistant/threads/{threadId}': adminGet(
    'analyticsThread',
    'One thread: its transcript and recorded answers',
    [pathParameter('threadId', 'The thread id the assistant stream announced.')],
    threadSchema({ conversations: { type: 'array', items: conversation } }),
  ),
  '/v1/analytics/{domain}/assistant/caller-stats': adminGet('analyticsCallerStats', 'Answers per caller kind and door', period, {
    type: 'object',
    required: ['dateFrom', 'dateTo', 'total', 'answered', 'unanswered', 'callers'],
    properties: {
      dateFrom: { type: 'string', format: 'date-time' },
      dateTo: { type: 'string', format: 'date-time' },
      total: count,
      answered: count,
      unanswered: count,
      callers: {
        type: 'array',
        items: {
          type: 'object',
          required: ['callerKind', 'surface', 'total', 'answered', 'unanswered'],
          properties: { callerKind: { enum: ['browser', 'server', 'other'] }, surface: { enum: ['assistant', 'openai', 'mcp'] }, total: count, answered: count, unanswered: count },
        },
      },
    },
  }),
  '/v1/analytics/{domain}/searches': adminGet(
    'analyticsSearches',
    'Searches per query, most searched first',
    paging(1000, 50),
    pageOf(
      'searches',
      {
        type: 'object',
        required: ['searchQuery', 'searches', 'hits', 'ctr', 'topClickedPage', 'lastSearchedAt'],
        properties: {
          searchQuery: { type: 'string' },
          searches: count,
          hits: { type: 'number', minimum: 0, description: 'Average results per search.' },
          ctr: { type: 'number', minimum: 0, maximum: 1, description: 'Share of searches with at least one reported click.' },
          topClickedPage: nullableString,
          lastSearchedAt: { type: 'string', format: 'date-time' },
        },
      },
      { totalSearches: count },
    ),
  ),
  '/v1/analytics/{domain}/feedback': adminGet('analyticsFeedback', 'Ratings of answers, newest first', paging(100, 50), pageOf('feedback', feedbackItem)),
  '/v1/analytics/{domain}/feedback/by-page': adminGet('analyticsFeedbackByPage', 'Ratings per page the readers were on', period, {
    type: 'object',
    required: ['pages'],
    properties: {
      pages: {
        type: 'array',
        items: { type: 'object', required: ['path', 'helpful', 'notHelpful', 'total'], properties: { path: nullableString, helpful: count, notHelpful: count, total: count } },
      },
    },
  }),
  '/v1/analytics/{domain}/gaps': adminGet(
    'analyticsGaps',
    'Coverage gaps: unanswered and poorly rated questions grouped by topic',
    paging(100, 20),
    pageOf('gaps', gap),
    'Two questions share a topic when at least 40% of their combined terms (words, stop words removed, endings cut) are common; each connected group is a gap. Largest first.',
  ),
  '/v1/analytics/{domain}/gaps/{gapId}/job': {
    post: {
      operationId: 'analyticsGapJob',
      summary: 'Start an agent job that fills a coverage gap',
      description: 'An ordinary agent job on the project, its prompt carrying the gap’s questions, nearest pages and suggestion. The gap lists the job and its `prLink`. The gap is looked up in the period given (default: the whole retention).',
      tags: ['analytics'],
      security: admin,
      parameters: [domain, pathParameter('gapId', 'A gap id from `GET /v1/analytics/{domain}/gaps`.')],
      requestBody: jsonBody({
        type: 'object',
        required: ['projectId'],
        properties: { projectId: { type: 'string', minLength: 1, maxLength: 128 }, dateFrom: { type: 'string' }, dateTo: { type: 'string' }, asDraft: { type: 'boolean' } },
      }),
      responses: {
        '201': jsonResponse('The job started', { type: 'object', required: ['gapId', 'projectId', 'jobId'], properties: { gapId: { type: 'string' }, projectId: { type: 'string' }, jobId: { type: 'string' } } }, RATE_LIMIT_HEADERS),
        ...errorResponses(...AUTHENTICATED_POST_ERRORS, 429),
        '404': errorResponse('Unknown domain, project or gap, or another organisation’s (`not_found`).'),
      },
    },
  },
};
