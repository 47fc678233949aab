import * as v from 'valibot';
import { ERROR_CONTENT, RATE_LIMIT_HEADERS } from '../openapi/components.js';
import { schemaRef, type NamedSchemas, type OperationSpec, type ResponseSpec } from '../openapi/operation.js';
import { DomainIdParams } from '../openapi/parameters.js';

const requestId = v.union([v.string(), v.pipe(v.number(), v.integer()), v.null()]);

/**
 * A JSON-RPC 2.0 message (request, notification, response or error), or a batch of them: what the
 * body may be. The MCP SDK's transport checks each message itself and answers a broken one in JSON-RPC.
 */
export const JsonRpcBody = v.union([
  v.looseObject({ jsonrpc: v.literal('2.0'), id: v.optional(requestId), method: v.optional(v.string()) }),
  v.array(v.looseObject({})),
]);

const JsonRpcError = v.looseObject({
  jsonrpc: v.literal('2.0'),
  id: v.optional(requestId),
  error: v.looseObject({ code: v.pipe(v.number(), v.integer()), message: v.string() }),
});

/** The JSON-RPC shapes of the MCP operations, named in the document (`#/components/schemas/…`). */
export const mcpSchemas: NamedSchemas = { JsonRpcMessage: JsonRpcBody, JsonRpcError };

/** The transport refuses some requests with a JSON-RPC error; the API's own checks answer with its Error shape. */
const transportOrApiError = (description: string): ResponseSpec => ({
  description,
  content: { 'application/json': { schema: { anyOf: [schemaRef('JsonRpcError'), schemaRef('Error')] } } },
});
const apiError = (description: string): ResponseSpec => ({ description, content: ERROR_CONTENT });

const notOffered = (method: 'get' | 'delete', operationId: string): OperationSpec => ({
  method,
  path: '/mcp/{domain}',
  operationId,
  summary: 'Not offered (stateless server)',
  tags: ['ai-tools'],
  params: { path: DomainIdParams },
  responses: {
    405: {
      description: 'Stateless server: there is no server-to-client stream to open and no session to end.',
      headers: { Allow: { schema: { const: 'POST' } } },
      content: ERROR_CONTENT,
    },
  },
});

/** The MCP server of each domain (router.ts). */
export const mcpOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/mcp/{domain}',
    operationId: 'mcpMessage',
    summary: 'MCP server of a domain (Streamable HTTP, stateless)',
    description:
      'The Model Context Protocol over Streamable HTTP (protocol 2025-03-26 and later), stateless: no `Mcp-Session-Id`, every POST is ' +
      'answered on its own, with `application/json`. `Accept` must list both `application/json` and `text/event-stream` ' +
      '(MCP clients send both). Tools: `search` (passages with title, absolute URL and text), `get_page` ' +
      '(a page as Markdown, by path or by URL on the domain\'s site) and `ask` (a cited answer from the assistant). Failures inside MCP (an unknown or ' +
      "another organisation's domain, bad arguments, a missing page, a spent limit) are tool results with `isError: true`; a " +
      'request whose params do not fit its method (`initialize`, `tools/list`, a `tools/call` that is not a call) is answered with ' +
      'JSON-RPC\'s invalid params (-32602) naming the field, alone or in a batch. JSON-RPC batches are answered only under `MCP-Protocol-Version` ' +
      '2025-03-26 or no header (the one version with batches); under any other version (2024-11-05 had none, 2025-06-18 removed them) ' +
      'they are refused as invalid requests (-32600). A request is cancelled by closing its HTTP request (an `ask` stops its model request); ' +
      'a `notifications/cancelled` cancels only a request of the same batch, which is then answered -32800. Only ' +
      "authentication is refused before MCP. `search` and `get_page` spend the organisation's hourly assistant limit (as the " +
      'search endpoints do); `ask` spends the three assistant limits. A call refused after it counted (a tool result with `isError: true`: ' +
      'a missing page, the search engine down, the model failing) gives its units back; a call its client cancels keeps them. The ' +
      '`RateLimit-*` headers tell of the last call of the request that spends, and are absent when none does.',
    tags: ['ai-tools'],
    security: 'assistant',
    params: { path: DomainIdParams },
    body: JsonRpcBody,
    responses: {
      200: { description: 'The JSON-RPC response(s) to the request(s) in the body.', headers: RATE_LIMIT_HEADERS, body: JsonRpcBody },
      202: { description: 'The body held only notifications or responses: nothing to answer.' },
      400: transportOrApiError(
        'The body is not JSON (-32700); not an MCP message (an id that is not a string or integer, params that are not an object), alone or in a batch, an empty batch, a batch holding `initialize` or two requests with one id, or a batch under any protocol version but 2025-03-26 (-32600).',
      ),
      401: apiError('No, unknown or revoked assistant key (`WWW-Authenticate: Bearer`).'),
      403: apiError('An admin key: this endpoint takes an assistant key.'),
      406: transportOrApiError('`Accept` does not list both `application/json` and `text/event-stream`.'),
      413: apiError('Body over the configured limit.'),
      415: transportOrApiError('The body is not `application/json`.'),
      500: apiError('Internal error.'),
      503: apiError('The key store cannot be reached.'),
    },
  },
  notOffered('get', 'mcpStream'),
  notOffered('delete', 'mcpEndSession'),
];
