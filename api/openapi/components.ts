import { CORS_EXPOSE_HEADERS } from '../cors.js';
import type { Schema } from './types.js';

const integerHeader = (description: string): Schema => ({ description, schema: { type: 'integer', minimum: 0 } });

/** Shared schemas, parameters, headers and responses, referenced as `#/components/…`. */
export const components: Record<string, Record<string, Schema>> = {
  schemas: {
    Error: {
      type: 'object',
      required: ['error', 'code'],
      properties: {
        error: { type: 'string', description: 'A message for people.' },
        code: {
          type: 'string',
          description:
            'A stable machine code: invalid_request, unauthorized, forbidden, not_found, method_not_allowed, conflict, payload_too_large, unsupported_media_type, rate_limited, invalid_signature (a push hook’s delivery), internal, unavailable, model_not_configured, model_failed, workflow_engine_refused, search_engine_refused, timeout; for the console: invalid_key, admin_key_required, not_signed_in, csrf_failed, console_not_built.',
        },
        details: {
          type: 'array',
          description: 'For invalid_request: each broken rule, with the field (`path`) it concerns.',
          items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
  },
  headers: {
    'X-Request-Id': {
      description: 'The request id (the client’s own `X-Request-Id` when it is 1–128 of `A-Za-z0-9._-`), also in the server log.',
      schema: { type: 'string' },
    },
    'RateLimit-Limit': integerHeader('Requests allowed in the window of the tightest limit that applied.'),
    'RateLimit-Remaining': integerHeader('Requests left in that window.'),
    'RateLimit-Reset': integerHeader('Seconds until that window resets.'),
    'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
    'WWW-Authenticate': { description: 'Always `Bearer`.', schema: { type: 'string', const: 'Bearer' } },
    Allow: { description: 'The methods this path serves.', schema: { type: 'string' } },
    // The CORS headers of the endpoints browsers call, on their answers and errors alike (see CORS_RESPONSE_HEADERS).
    'Access-Control-Allow-Origin': {
      description: "The request's `Origin`, when the domain allows it (or lists no origins). Absent without an `Origin` header.",
      schema: { type: 'string' },
    },
    'Access-Control-Expose-Headers': { description: `Always \`${CORS_EXPOSE_HEADERS.join(', ')}\`.`, schema: { type: 'string' } },
    Deprecation: { description: 'The v1 assistant is deprecated: `true`.', schema: { type: 'string' } },
    Link: { description: 'The successor endpoint, `rel="successor-version"`.', schema: { type: 'string' } },
  },
  securitySchemes: {
    adminKey: { type: 'http', scheme: 'bearer', description: 'An admin key (`quire_…`).' },
    assistantKey: { type: 'http', scheme: 'bearer', description: 'An assistant key (`quire_dsc_…`); safe in browsers.' },
    consoleSession: {
      type: 'apiKey',
      in: 'cookie',
      name: 'quire_console',
      description:
        'The console’s session cookie (`POST /console/session`), accepted wherever an admin key is, when no `Authorization` header is sent. Methods other than GET, HEAD and OPTIONS must then carry the session’s `X-CSRF-Token`, else 403 `csrf_failed`.',
    },
    operatorToken: { type: 'http', scheme: 'bearer', description: 'The deployment operator’s token, `QUIRE_OPERATOR_TOKEN`.' },
  },
  responses: {},
};

const ref = (name: string): Schema => ({ $ref: `#/components/headers/${name}` });

/** Headers on every response. */
export const COMMON_HEADERS: Record<string, Schema> = { 'X-Request-Id': ref('X-Request-Id') };

/** The RateLimit-* headers of the tightest limit that applied (success and 429 alike). */
export const RATE_LIMIT_HEADERS: Record<string, Schema> = {
  'RateLimit-Limit': ref('RateLimit-Limit'),
  'RateLimit-Remaining': ref('RateLimit-Remaining'),
  'RateLimit-Reset': ref('RateLimit-Reset'),
};

/** The body of every JSON error: the shared Error shape. */
export const ERROR_CONTENT: Record<string, Schema> = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** A JSON error response with the shared shape. */
export function errorResponse(description: string, headers: Record<string, Schema> = {}): Schema {
  return {
    description,
    headers: { ...COMMON_HEADERS, ...headers },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/** A JSON success response. */
export function jsonResponse(description: string, schema: Schema, headers: Record<string, Schema> = {}): Schema {
  return { description, headers: { ...COMMON_HEADERS, ...headers }, content: { 'application/json': { schema } } };
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503;

const ERRORS: Record<ErrorStatus, () => Schema> = {
  400: () =>
    errorResponse(
      'A parameter or the body breaks a rule (`invalid_request`; `details` names each field), two Authorization headers, a NUL character (`%00` in the URL, `\\u0000` in the body), or a body that cannot be decoded.',
    ),
  401: () => errorResponse('No `Authorization: Bearer` header, or an unknown or revoked key (`unauthorized`).', { 'WWW-Authenticate': ref('WWW-Authenticate') }),
  403: () => errorResponse('A valid key of the other kind (`forbidden`), or a request signed in with the console cookie whose `X-CSRF-Token` is missing or wrong (`csrf_failed`).'),
  404: () => errorResponse('Unknown, or another organisation’s (`not_found`).'),
  405: () => errorResponse('A method this path does not serve (`method_not_allowed`).', { Allow: ref('Allow') }),
  409: () => errorResponse('The job is archived or has ended, or its project is being deleted (`conflict`).'),
  413: () => errorResponse('Body over the configured limit, `QUIRE_BODY_LIMIT` (`payload_too_large`).'),
  415: () => errorResponse('A body that is not `application/json`, or an unknown `Content-Encoding` (`unsupported_media_type`).'),
  422: () => errorResponse('An `Idempotency-Key` used before with another prompt (`idempotency_key_reused`): choose a new key for a new request.'),
  429: () => errorResponse('A limit is spent (`rate_limited`).', { 'Retry-After': ref('Retry-After'), ...RATE_LIMIT_HEADERS }),
  500: () => errorResponse('A defect (`internal`); the message never shows internals.'),
  502: () =>
    errorResponse(
      'An engine answered with a failure: Temporal refused the request (`workflow_engine_refused`), for example a namespace without Quire’s search attributes, which the worker adds when it starts; Qdrant refused it (`search_engine_refused`), for example a domain’s collection deleted or an API key it does not accept; or the model provider did (`model_failed`). The reason is in the service’s log, not the message.',
    ),
  503: () =>
    errorResponse('An engine it needs (Temporal, the database, Redis, Qdrant, the model) is down or busy (`unavailable`), or an agent job was asked for and no model is configured (`model_not_configured`).', {
      'Retry-After': ref('Retry-After'),
    }),
};

/** The name of each shared error response in the document (`#/components/responses/<Name>`). */
const ERROR_NAMES: Record<ErrorStatus, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'IdempotencyKeyReused',
  429: 'RateLimited',
  500: 'Internal',
  502: 'EngineRefused',
  503: 'Unavailable',
};

/**
 * Headers some operations' errors carry besides the shared ones (the CORS headers of the endpoints
 * browsers call), named: the shared error responses with them are components too, under the
 * set's name before theirs (`Cors` gives `CorsBadRequest`).
 */
export interface ErrorHeaderSet {
  name: string;
  headers: Record<string, Schema>;
}

/**
 * The shared error responses, written once in the document's components and referred to by each
 * operation: as they are, and with each of the header `sets` the operations use.
 */
export function errorResponseComponents(sets: ErrorHeaderSet[] = []): Record<string, Schema> {
  return Object.fromEntries(
    [undefined, ...sets].flatMap((set) =>
      Object.entries(ERROR_NAMES).map(([status, name]) => {
        const r = ERRORS[Number(status) as ErrorStatus]();
        return [`${set?.name ?? ''}${name}`, set ? { ...r, headers: { ...(r.headers as Schema), ...set.headers } } : r];
      }),
    ),
  );
}

/** The error responses an operation can give, by status: `$ref`s to the shared ones, with the header set its errors carry (`extra`) if any. */
export function errorResponses(statuses: ErrorStatus[], extra?: ErrorHeaderSet): Record<string, Schema> {
  return Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/${extra?.name ?? ''}${ERROR_NAMES[s]}` }]));
}

/** What every authenticated JSON POST can answer besides its own statuses. */
export const AUTHENTICATED_POST_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 413, 415, 500, 503];
/** …and every authenticated GET. */
export const AUTHENTICATED_GET_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 500, 503];

/** A path parameter: a non-empty segment. */
export function pathParameter(name: string, description: string): Schema {
  return { name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1 } };
}
