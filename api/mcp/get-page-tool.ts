import { pagePathFrom, pageUrl } from '../ai-tools/index.js';
import { argumentsOf } from './tool-arguments.js';
import { requireDomain, ToolFailure, type DocsTool } from './tool.js';

interface GetPageArguments {
  path: string;
  groups?: string[];
}

const definition = {
  name: 'get_page',
  title: 'Read a documentation page',
  description:
    'Returns one whole page of the documentation as Markdown, with its title and URL. Pass the page path from a ' +
    'search result (e.g. "/guides/webhooks") or the page\'s full URL. Use it when a passage from search is not ' +
    'enough and you need the complete page.',
  inputSchema: {
    type: 'object' as const,
    properties: {
      path: { type: 'string', minLength: 1, maxLength: 500, description: 'Page path ("/guides/webhooks") or the page URL.' },
      groups: {
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: 100 },
        maxItems: 50,
        description: 'Access groups the reader belongs to, for pages restricted to groups.',
      },
    },
    required: ['path'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

const parse = argumentsOf<GetPageArguments>(definition);

/** `get_page`: one page's Markdown, as the page endpoint returns it. */
export const getPageTool: DocsTool = {
  definition,
  async run(args, ctx) {
    const { path: given, groups } = parse(args);
    const domain = requireDomain(ctx);
    let path: string | undefined;
    try {
      path = pagePathFrom(domain.baseUrl, given);
    } catch {
      throw new ToolFailure(`'${given}' is neither a page path nor a URL.`);
    }
    if (path === undefined) throw new ToolFailure(`'${given}' is not a page of ${domain.baseUrl}: pass a page path ("/guides/webhooks") or a URL of that site.`);
    await ctx.consume('search');
    const page = await ctx.docIndex.getPage(domain.id, path, groups);
    if (!page) throw new ToolFailure(`No page at '${path}'. Use search to find page paths (the path field of each result).`);
    const text = `# ${page.title}\n\nURL: ${pageUrl(domain.baseUrl, page.path)}\n\n${page.content.trim()}\n`;
    return { content: [{ type: 'text', text }] };
  },
};
