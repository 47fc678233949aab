import { errorResponse } from '../components.js';
import type { PathItems, Schema } from '../types.js';
import { domainParameter, rateLimitHeaders } from './shared-headers.js';

/** A JSON-RPC 2.0 message (request, notification, response or error), or a batch of them. */
const jsonRpc: Schema = {
  oneOf: [
    { type: 'object', required: ['jsonrpc'], properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer', 'null'] }, method: { type: 'string' } } },
    { type: 'array', items: { type: 'object' } },
  ],
};

const jsonRpcError: Schema = {
  type: 'object',
  required: ['jsonrpc', 'error'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } },
  },
};

/** The transport refuses some requests with a JSON-RPC error; the API's own checks answer with its Error shape. */
const transportOrApiError = (description: string): Schema => ({
  description,
  content: { 'application/json': { schema: { anyOf: [jsonRpcError, { $ref: '#/components/schemas/Error' }] } } },
});

const notAllowed: Schema = {
  description: 'Stateless server: there is no server-to-client stream to open and no session to end.',
  headers: { Allow: { schema: { const: 'POST' } } },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};

export const mcpPaths: PathItems = {
  '/mcp/{domain}': {
    post: {
      operationId: 'mcpMessage',
      summary: 'MCP server of a domain (Streamable HTTP, stateless)',
      description:
        'The Model Context Protocol over Streamable HTTP (protocol 2025-03-26 and later), stateless: no `Mcp-Session-Id`, every POST is ' +
        'answered on its own, with `application/json`. `Accept` must list both `application/json` and `text/event-stream` ' +
        '(MCP clients send both). Tools: `search` (passages with title, absolute URL and text), `get_page` ' +
        '(a page as Markdown, by path or URL) and `ask` (a cited answer from the assistant). Failures inside MCP (an unknown or ' +
        "another organisation's domain, bad arguments, a missing page, a spent limit) are tool results with `isError: true`; only " +
        'authentication is refused before MCP. `search` and `get_page` spend the organisation\'s hourly assistant limit (as the ' +
        'search endpoints do); `ask` spends the three assistant limits.',
      tags: ['ai-tools'],
      security: [{ assistantKey: [] }],
      parameters: [domainParameter],
      requestBody: { required: true, content: { 'application/json': { schema: jsonRpc } } },
      responses: {
        '200': {
          description: 'The JSON-RPC response(s) to the request(s) in the body.',
          headers: rateLimitHeaders,
          content: { 'application/json': { schema: jsonRpc } },
        },
        '202': { description: 'The body held only notifications or responses: nothing to answer.' },
        '400': transportOrApiError('The body is not JSON, or not a JSON-RPC message.'),
        '401': errorResponse('No, unknown or revoked assistant key (`WWW-Authenticate: Bearer`).'),
        '403': errorResponse('An admin key: this endpoint takes an assistant key.'),
        '406': transportOrApiError('`Accept` does not list both `application/json` and `text/event-stream`.'),
        '413': errorResponse('Body over the configured limit.'),
        '415': transportOrApiError('The body is not `application/json`.'),
        '500': errorResponse('Internal error.'),
        '503': errorResponse('The key store cannot be reached.'),
      },
    },
    get: { operationId: 'mcpStream', summary: 'Not offered (stateless server)', tags: ['ai-tools'], parameters: [domainParameter], responses: { '405': notAllowed } },
    delete: { operationId: 'mcpEndSession', summary: 'Not offered (stateless server)', tags: ['ai-tools'], parameters: [domainParameter], responses: { '405': notAllowed } },
  },
};
