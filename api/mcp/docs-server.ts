import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LimitStoreUnavailableError, RateLimitedError, type Spent } from '../../core/limits/index.js';
import type { Logger } from '../../core/logger.js';
import { ModelFailedError } from '../assistant/index.js';
import { HttpError } from '../http-error.js';
import { askTool } from './ask-tool.js';
import { getPageTool } from './get-page-tool.js';
import { searchTool } from './search-tool.js';
import { toolError, ToolFailure, type DocsTool, type ToolContext } from './tool.js';

export const DOCS_TOOLS: DocsTool[] = [searchTool, getPageTool, askTool];

const SERVER_INFO = { name: 'quire-docs', version: '0.1.0' };

/**
 * A JSON-RPC error answered with its reason alone: the SDK answers any error's `code` and
 * `message`, and its `McpError` writes "MCP error <code>: " into the message, which clients
 * then prefix again with their own.
 */
class JsonRpcError extends Error {
  override name = 'JsonRpcError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** What the calling model reads when a tool fails: the reason, never internals. */
function failureText(err: unknown, logger: Logger): string {
  if (err instanceof ToolFailure || err instanceof ModelFailedError) return err.message;
  if (err instanceof RateLimitedError) {
    const { points, window } = err.check;
    return `Rate limit reached (${points} request${points === 1 ? '' : 's'} per ${window}); try again in ${Math.max(1, err.state.resetSeconds)} seconds.`;
  }
  if (err instanceof LimitStoreUnavailableError) return 'The service is briefly unavailable; try again shortly.';
  if (err instanceof HttpError && err.status < 500) return err.message;
  logger.error({ err }, 'MCP tool failed');
  return 'The tool failed with an internal error; try again later.';
}

function instructions(ctx: Omit<ToolContext, 'signal'>): string {
  const site = ctx.domain ? `the documentation at ${ctx.domain.baseUrl}` : `the documentation domain '${ctx.domainId}'`;
  return (
    `Tools over ${site}: search finds passages with their URLs, get_page reads a whole page as Markdown, ` +
    'ask returns a cited answer. Cite the URLs you used.'
  );
}

/**
 * One MCP server for one request (the transport is stateless): the docs tools
 * bound to the caller's domain. Built on the SDK's `Server` rather than
 * `McpServer` because `McpServer` takes zod schemas; ours are JSON Schemas,
 * checked with the SDK's own validator (see `tool-arguments.ts`).
 */
export function docsMcpServer(ctx: Omit<ToolContext, 'signal'>, logger: Logger, tools: DocsTool[] = DOCS_TOOLS): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: instructions(ctx) });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((t) => t.definition) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools.find((t) => t.definition.name === request.params.name);
    if (!tool) {
      const names = tools.map((t) => t.definition.name).join(', ');
      throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool '${request.params.name}'; the tools are ${names}.`);
    }
    let spent: Spent | undefined;
    const call: ToolContext = { ...ctx, signal: extra.signal, consume: async (kind) => (spent = await ctx.consume(kind)) };
    try {
      return await tool.run(request.params.arguments ?? {}, call);
    } catch (err) {
      // A call refused after it counted (no such page, the search engine down, the model failing,
      // …) is Quire's refusal: it spends nothing. One its client cancelled (closing its request,
      // or a notifications/cancelled in its batch) is the client's to pay: it keeps what it spent.
      if (spent && !extra.signal.aborted) await ctx.giveBack(spent);
      return toolError(failureText(err, logger));
    }
  });
  return server;
}
