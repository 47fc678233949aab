import { passageUrl } from '../assistant/index.js';
import type { SearchHit } from '../../core/retrieval/index.js';
import type { FilterArgument } from './filter-schema.js';
import { FILTER_SCHEMA } from './filter-schema.js';
import { argumentsOf } from './tool-arguments.js';
import { requireDomain, type DocsTool } from './tool.js';

interface SearchArguments {
  query: string;
  pageSize?: number;
  filter?: FilterArgument;
}

const RESULT = {
  type: 'object',
  properties: {
    title: { type: 'string', description: 'Page title, and the heading of the passage when it has one.' },
    url: { type: 'string', description: 'Absolute URL of the passage on the docs site.' },
    path: { type: 'string', description: 'Page path, for get_page.' },
    passage: { type: 'string', description: 'The matching passage, as Markdown.' },
    score: { type: 'number' },
  },
  required: ['title', 'url', 'path', 'passage', 'score'],
};

const definition = {
  name: 'search',
  title: 'Search the documentation',
  description:
    'Searches the documentation and returns the passages that best match, best first, each with its page title, ' +
    'its absolute URL and the passage text. Use it first to find where the docs answer something; then read a whole ' +
    'page with get_page (pass the result\'s path). Queries work best as a few keywords or a short question ' +
    '("verify webhook signatures", "retry policy for failed jobs").',
  inputSchema: {
    type: 'object' as const,
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S', description: 'What to look for: keywords or a short question.' },
      pageSize: { type: 'integer', minimum: 1, maximum: 50, default: 10, description: 'How many passages to return (1–50, default 10).' },
      filter: FILTER_SCHEMA,
    },
    required: ['query'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object' as const,
    properties: { results: { type: 'array', items: RESULT } },
    required: ['results'],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

const parse = argumentsOf<SearchArguments>(definition);

/** A passage's page title and, when it is a section of it, the section's heading. */
function sectionTitle(hit: SearchHit): string {
  const heading = hit.metadata.breadcrumb.at(-1);
  const title = heading && heading !== hit.metadata.title ? `${hit.metadata.title} › ${heading}` : hit.metadata.title;
  return title || hit.path;
}

/** `search`: the search endpoint's retrieval, as passages with absolute URLs. */
export const searchTool: DocsTool = {
  definition,
  async run(args, ctx) {
    const { query, pageSize = 10, filter } = parse(args);
    const domain = requireDomain(ctx);
    await ctx.consume('search');
    const hits = await ctx.docIndex.search(domain.id, {
      query: query.trim(),
      pageSize,
      ...(domain.language ? { language: domain.language } : {}),
      ...(filter ? { filter } : {}),
    });
    const results = hits.map((hit) => ({
      title: sectionTitle(hit),
      url: passageUrl(domain.baseUrl, hit),
      path: hit.path,
      passage: hit.content,
      score: hit.metadata.score,
    }));
    const text =
      results.length === 0
        ? `No passage of the documentation matches "${query.trim()}". Try other keywords, or fewer.`
        : results.map((r, i) => `## ${i + 1}. ${r.title}\nURL: ${r.url}\nPath: ${r.path}\n\n${r.passage.trim()}`).join('\n\n');
    return { content: [{ type: 'text', text }], structuredContent: { results } };
  },
};
