import Router from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Context } from 'koa';
import { findOwnDomain } from '../ai-tools/index.js';
import { recordAiView } from '../analytics/ai-views.js';
import { callerKind } from '../analytics/caller-kind.js';
import { assistantLimits } from '../assistant/index.js';
import { authOf, requireKey } from '../auth.js';
import type { Spent } from '../../core/limits/index.js';
import { BodyNotJsonError, giveBackLimit, quireErrorBody, setRateLimitHeaders, type ErrorBody } from '../error-middleware.js';
import { HttpError } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { docsMcpServer } from './docs-server.js';
import { jsonRpcRefusal } from './json-rpc-checks.js';
import { guardRequests } from './request-guard.js';
import type { ToolContext } from './tool.js';

/** What the MCP server uses. */
export type McpRouterDeps = Pick<ApiServices, 'tenants' | 'limiter' | 'docIndex' | 'answers' | 'analytics' | 'logger'>;

/**
 * The docs MCP server of each domain at `/mcp/{domain}`, Streamable HTTP in
 * stateless mode: every POST gets its own server and transport, so any API
 * replica can answer any request. The assistant key authenticates before MCP
 * starts; everything after (an unknown domain included) is a tool error.
 */
/**
 * The MCP endpoint's error bodies: a body that is not JSON is JSON-RPC's parse error (-32700), as
 * the transport answers a message it cannot read; what is refused before MCP (the key, the limits)
 * keeps Quire's shape, as the operation documents.
 */
export const mcpErrorBody: ErrorBody = (e) =>
  e instanceof BodyNotJsonError ? { jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${e.message}` }, id: null } : quireErrorBody(e);

/** Whether a JSON-RPC body (one message or a batch) calls a tool. */
function callsATool(body: unknown): boolean {
  return (Array.isArray(body) ? body : [body]).some((m: unknown) => typeof m === 'object' && m !== null && 'method' in m && m.method === 'tools/call');
}

export function mcpRouter(services: McpRouterDeps): Router {
  const { tenants, limiter, logger, docIndex, answers } = services;
  const router = new Router();

  router.post('/mcp/:domain', requireKey(tenants, 'assistant'), async (ctx: Context) => {
    const { key, orgId } = authOf(ctx);
    const refused = jsonRpcRefusal(ctx.request.body, ctx.get('mcp-protocol-version') || undefined);
    if (refused) {
      ctx.status = refused.status;
      ctx.body = refused.body;
      return;
    }
    const domainId = String(ctx.params.domain ?? '');
    const domain = await findOwnDomain(tenants, orgId, domainId);
    // A view is a tool call, as a page fetch is one; the handshake, listings and pings are not.
    if (domain && callsATool(ctx.request.body)) recordAiView(services, ctx, domain.id, '/mcp');
    // What the tool calls of this POST (one, or a batch's) spent and still spend: the headers tell of the last.
    const standing: Spent[] = [];
    const tools: Omit<ToolContext, 'signal'> = {
      domainId,
      domain,
      orgId,
      caller: domain ? callerKind(ctx, domain) : 'other',
      docIndex,
      answers,
      consume: async (kind) => {
        const org = await tenants.getOrg(orgId);
        const checks = assistantLimits({ keyId: key.id, orgId, ip: ctx.ip }, org?.limits);
        const state = await limiter.consume(kind === 'answer' ? checks : checks.filter((c) => c.name === 'assistant-org'));
        // JSON responses are written after the tools ran, so the headers still go out.
        setRateLimitHeaders(ctx, state);
        standing.push(state);
        return state;
      },
      giveBack: async (spent) => {
        const at = standing.indexOf(spent);
        if (at >= 0) standing.splice(at, 1);
        const last = standing.at(-1);
        if (!last) return giveBackLimit(ctx, limiter, spent);
        // Another call of the batch still spends: the headers tell of it.
        setRateLimitHeaders(ctx, last);
        return limiter.giveBack(spent);
      },
    };
    const server = docsMcpServer(tools, logger);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.res.once('close', () => {
      // Closing aborts a tool still running (an `ask` whose client left).
      void server.close().catch((err: unknown) => logger.warn({ err }, 'MCP server did not close cleanly'));
    });
    await server.connect(transport);
    guardRequests(transport, logger);
    ctx.respond = false;
    try {
      await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
    } catch (err) {
      if (ctx.res.headersSent) {
        logger.error({ err, requestId: ctx.state.requestId }, 'MCP request failed mid-response');
        ctx.res.destroy();
        return;
      }
      ctx.respond = true;
      throw err;
    }
  });

  /** No GET stream and no session: the spec's answer for a stateless server is 405. */
  const notAllowed = () => {
    throw new HttpError(
      405,
      'method_not_allowed',
      'this MCP server is stateless: send JSON-RPC messages with POST; there is no stream to open (GET) and no session to end (DELETE)',
      undefined,
      { Allow: 'POST' },
    );
  };
  router.get('/mcp/:domain', notAllowed);
  router.delete('/mcp/:domain', notAllowed);
  return router;
}
