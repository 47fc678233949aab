import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCErrorResponse,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * What the MCP endpoint refuses before the SDK's transport sees a body, where the transport's own
 * answer would be wrong in JSON-RPC's terms: a batch where the protocol has none (or an empty
 * one, one holding `initialize`, one that repeats a request's id), and JSON that is not an MCP message, alone or in a batch (the transport calls it a parse
 * error, though the JSON parsed). And what the server answers wrongly of one request: params that
 * do not fit its method, such as a `tools/call` that is not a call (the SDK answers -32603, an
 * internal error, with its validator's dump).
 */

/**
 * The one MCP protocol version with JSON-RPC batches: 2025-03-26 added them and 2025-06-18 removed
 * them (each revision's changelog says so); 2024-11-05 and before had none.
 */
const VERSION_WITH_BATCHES = '2025-03-26';
/** What a client that sends no `MCP-Protocol-Version` header is taken to speak, as the spec says. */
const VERSION_WITHOUT_HEADER = '2025-03-26';

/** JSON-RPC's own error codes. */
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
/**
 * The answer to a request its client cancelled, where one must be written: JSON-RPC and MCP name
 * no code for it, so it is the one the Language Server Protocol gives (`RequestCancelled`).
 */
export const REQUEST_CANCELLED = -32800;

type JsonRpcId = string | number | null;

export interface JsonRpcRefusal {
  /** A body the endpoint cannot take. */
  status: 400;
  body: { jsonrpc: '2.0'; id: JsonRpcId; error: { code: number; message: string } };
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The message's id when it is one JSON-RPC allows, else null (as for a message whose id cannot be read). */
function idOf(message: Record<string, unknown>): JsonRpcId {
  const { id } = message;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
}

function refuse(status: JsonRpcRefusal['status'], id: JsonRpcId, code: number, message: string): JsonRpcRefusal {
  return { status, body: { jsonrpc: '2.0', id, error: { code, message } } };
}

/** Why `params` of a `tools/call` is not a call, in the caller's terms; undefined when it is one. */
function toolCallProblem(params: unknown): string | undefined {
  if (!isObject(params)) return 'params must be an object with the tool\'s name and its arguments ({"name": …, "arguments": {…}})';
  if (typeof params.name !== 'string') return 'params.name must be a string, the name of a tool that tools/list shows';
  if (params.arguments !== undefined && !isObject(params.arguments)) return 'params.arguments must be an object of the tool\'s arguments';
  if (params._meta !== undefined && !isObject(params._meta)) return 'params._meta must be an object';
  return undefined;
}

/** One of the SDK's schemas, as far as these checks read it. */
interface SdkSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
}

/** The SDK's schemas of the requests the docs server answers: what its handlers parse a request with before they run. */
const REQUEST_SCHEMAS = new Map<string, SdkSchema>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
]);

/** Why `value` does not fit `schema`, on one line (the first field, not the validator's dump); undefined when it fits. */
function schemaProblem(schema: SdkSchema, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error?.issues[0];
  return issue ? `${issue.path.map(String).join('.') || 'the message'}: ${issue.message}` : 'the message does not fit';
}

/** Why a request's params do not fit its method, as the SDK's schema finds it; undefined when they fit. */
function paramsProblem(method: string, request: JSONRPCRequest): string | undefined {
  const schema = REQUEST_SCHEMAS.get(method);
  return schema && schemaProblem(schema, request);
}

const NOT_A_MESSAGE =
  'a JSON-RPC 2.0 message has "jsonrpc": "2.0" and either a "method" (a request or notification) or a "result" or "error" (a response)';

/**
 * Why a JSON value is not an MCP message, or undefined when it is one. What the transport itself
 * checks (its message schema) decides; the reasons name what clients most often get wrong.
 */
function messageProblem(m: unknown): string | undefined {
  if (!isObject(m) || m.jsonrpc !== '2.0' || !(typeof m.method === 'string' || 'result' in m || 'error' in m)) return NOT_A_MESSAGE;
  if ('id' in m && idOf(m) === null) return 'id must be a string or an integer of at most 2^53 - 1 (MCP allows no null id)';
  if ('params' in m && !isObject(m.params)) return 'params must be an object when present';
  if (JSONRPCMessageSchema.safeParse(m).success) return undefined;
  // A request or notification is read against its own schema, which names the field; a response, against all.
  if (typeof m.method !== 'string') return schemaProblem(JSONRPCMessageSchema, m);
  return schemaProblem('id' in m ? JSONRPCRequestSchema : JSONRPCNotificationSchema, m);
}

/**
 * Why a message (already an MCP message) may not be in a batch, or undefined: an `initialize`,
 * which 2025-03-26 requires alone ("MUST NOT be part of a JSON-RPC batch"), or a request whose id
 * an earlier request of the batch has (`seen` holds those), which could not tell its answer from
 * theirs: the SDK answered only one of them.
 */
function batchProblem(message: unknown, seen: Set<string>): string | undefined {
  if (!isObject(message) || typeof message.method !== 'string') return undefined;
  if (message.method === 'initialize') return 'initialize must be sent alone, not in a batch (MCP 2025-03-26)';
  if (!('id' in message)) return undefined;
  const id = idOf(message);
  // 1 and "1" are different ids.
  const key = `${typeof id}:${String(id)}`;
  if (seen.has(key)) return `id ${JSON.stringify(id)} is the id of an earlier request of the batch: give each request its own id`;
  seen.add(key);
  return undefined;
}

/**
 * The refusal of a POST body the transport would answer wrongly, or undefined to hand it on.
 * `protocolVersion` is the request's `MCP-Protocol-Version` header, when it has one.
 */
export function jsonRpcRefusal(body: unknown, protocolVersion: string | undefined): JsonRpcRefusal | undefined {
  if (Array.isArray(body)) {
    if (body.length === 0) return refuse(400, null, INVALID_REQUEST, 'Invalid Request: the batch is empty');
    const version = protocolVersion ?? VERSION_WITHOUT_HEADER;
    if (version !== VERSION_WITH_BATCHES) {
      // A batch is not a request these versions define, hence JSON-RPC's invalid request.
      return refuse(
        400,
        null,
        INVALID_REQUEST,
        `Invalid Request: MCP ${version.slice(0, 40)} has no JSON-RPC batches (only ${VERSION_WITH_BATCHES} has them); send one message per POST`,
      );
    }
    // The transport refuses a whole batch for one broken message, so the refusal names which.
    const requestIds = new Set<string>();
    for (const [i, message] of body.entries()) {
      const problem = messageProblem(message) ?? batchProblem(message, requestIds);
      if (problem) return refuse(400, null, INVALID_REQUEST, `Invalid Request: message ${i + 1} of the batch: ${problem}`);
    }
    return undefined;
  }
  const problem = messageProblem(body);
  if (problem || !isObject(body)) return refuse(400, isObject(body) ? idOf(body) : null, INVALID_REQUEST, `Invalid Request: ${problem ?? NOT_A_MESSAGE}`);
  return undefined;
}

/**
 * JSON-RPC's invalid params (-32602) for a request whose params do not fit its method, naming the
 * field; undefined when they fit. Checked per request as the transport hands each on (see
 * `request-guard.ts`), so a request in a batch is answered as it is alone.
 */
export function invalidParams(request: JSONRPCRequest): JSONRPCErrorResponse | undefined {
  const wrong = (request.method === 'tools/call' ? toolCallProblem(request.params) : undefined) ?? paramsProblem(request.method, request);
  return wrong === undefined ? undefined : { jsonrpc: '2.0', id: request.id, error: { code: INVALID_PARAMS, message: `Invalid params: ${wrong}` } };
}
