import * as v from 'valibot';
import { IndexProgressSchema } from '../../core/contracts/index-progress-schema.js';
import type { SearchHit } from '../../core/retrieval/index.js';
import { sameType } from '../openapi/operation.js';

const filterField = v.pipe(v.string(), v.minLength(1), v.maxLength(100));

export const SearchFilterBody = v.strictObject({
  version: v.optional(filterField),
  language: v.optional(filterField),
  tag: v.optional(filterField),
  groups: v.optional(v.pipe(v.array(filterField), v.maxLength(50))),
});

export const SearchBody = v.pipe(
  v.object({
    // /\S/ before trimming, so the document says it too: a query that is only whitespace asks nothing.
    query: v.pipe(v.string('must be a string'), v.regex(/\S/, 'must not be empty or only whitespace'), v.trim(), v.maxLength(2000)),
    pageSize: v.optional(
      v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be 1–50'), v.maxValue(50, 'must be 1–50'), v.description('Pages to return.')),
      10,
    ),
    scoreThreshold: v.optional(v.pipe(v.number('must be a number'), v.minValue(0, 'must be 0–1'), v.maxValue(1, 'must be 0–1'))),
    filter: v.optional(SearchFilterBody),
  }),
  v.examples([{ query: 'install the CLI', pageSize: 5 }]),
);

export const PageBody = v.pipe(
  v.object({
    path: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(500)),
    groups: v.optional(v.pipe(v.array(filterField), v.maxLength(50))),
  }),
  v.examples([{ path: '/quickstart' }]),
);

/** One result of a search: a page, shown by its best-matching chunk (core/retrieval's `SearchHit`). */
export const SearchHitSchema = v.object({
  content: v.pipe(v.string(), v.description('The page’s chunk that best matches the query (Markdown, MDX markup removed).')),
  path: v.pipe(v.string(), v.description('URL path of the page; no page appears twice in one response.')),
  metadata: v.object({
    title: v.string(),
    anchor: v.pipe(v.string(), v.description('Heading anchor of the chunk shown, empty for the top of the page.')),
    breadcrumb: v.array(v.string()),
    score: v.pipe(v.number(), v.description('The page’s score, in [0, 1].')),
    retrieval: v.pipe(
      v.optional(v.picklist(['hybrid', 'keyword', 'keyword-fallback'])),
      v.description('How the search ranked: `keyword-fallback` when the embedder did not answer in time.'),
    ),
    version: v.optional(v.string()),
    language: v.optional(v.string()),
  }),
});
sameType<v.InferOutput<typeof SearchHitSchema>, SearchHit>(true);

export const PageView = v.object({ path: v.string(), content: v.string() });

/** `POST /v1/admin/domains/{domain}/index`. */
export const IndexRunSchema = v.object({ workflowId: v.string(), runId: v.string() });

/** `GET /v1/admin/domains/{domain}/index`. */
export const IndexRunStatusSchema = v.object({
  ...IndexRunSchema.entries,
  status: v.pipe(v.string(), v.description('running, completed, failed, terminated, …')),
  progress: v.optional(IndexProgressSchema),
  result: v.pipe(v.optional(v.looseObject({})), v.description('Pages and chunks added, updated, removed, unchanged; seconds.')),
});
