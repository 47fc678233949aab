import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { COMMON_HEADERS, errorResponses, type ErrorHeaderSet, type ErrorStatus } from './components.js';
import type { Operation, PathItems, Schema } from './types.js';

type AnySchema = v.GenericSchema;
type Entries = Record<string, AnySchema>;
/** An object schema whose entries are the parameters of one place (path, query, header). */
type ParameterSchema = { readonly entries: Entries };

/** One response of an operation: a JSON body from its valibot schema, or other media types as JSON Schema. */
export interface ResponseSpec {
  description: string;
  body?: AnySchema;
  /** Bodies that are not JSON (`text/event-stream`, `text/plain`…), by media type. */
  content?: Record<string, Schema>;
  /** Header objects or `$ref`s, beside `X-Request-Id`, which every response has. */
  headers?: Record<string, Schema>;
}

/**
 * One operation of the API, declared once beside its route from the schemas
 * the route validates with and answers with. `operation()` turns it into the
 * OpenAPI operation object; `pathItems()` collects a feature's operations.
 */
export interface OperationSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';
  /** The OpenAPI path template: `/v2/agent/{projectId}/job`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  /** Which key the route requires (none for public routes), or OpenAPI security requirements as they are. */
  security?: 'admin' | 'assistant' | 'operator' | 'none' | Array<Record<string, string[]>>;
  /** A route kept for old clients (the v1 assistant). */
  deprecated?: boolean;
  params?: { path?: ParameterSchema; query?: ParameterSchema; header?: ParameterSchema };
  /** The JSON request body's schema, as `parseInput` applies it. */
  body?: AnySchema;
  /** False when an empty body is accepted (the schema's defaults apply). */
  bodyRequired?: boolean;
  responses: Record<number, ResponseSpec>;
  /** The shared error responses it can answer (components.ts). */
  errors?: ErrorStatus[];
  /** Headers those shared error responses carry too (`CORS_ERRORS`, on the endpoints browsers call). */
  errorHeaders?: ErrorHeaderSet;
  /** Vendor extensions (`x-mintlify-compatible`). */
  extensions?: Record<`x-${string}`, unknown>;
}

/** Requests are described as the client sends them (before a transform), responses as the server writes them. */
const REQUEST: ConversionConfig = { target: 'draft-2020-12', typeMode: 'input', errorMode: 'ignore' };
const RESPONSE: ConversionConfig = { target: 'draft-2020-12', typeMode: 'output', errorMode: 'ignore' };

/**
 * The schemas the document names, by name (`#/components/schemas/<Name>`): each is written out once
 * there, and wherever an operation's schema uses the very same valibot schema, the document refers to it.
 * A feature names the shapes its operations share in its `operations.ts`; paths/index.ts collects them.
 */
export type NamedSchemas = Record<string, AnySchema>;

/**
 * The schemas a feature writes as JSON Schema itself (a stream's event, whose `data` is a string of
 * JSON, which valibot cannot say), named in the document all the same: each written out once in
 * `#/components/schemas/` and referred to with `schemaRef`. paths/index.ts collects them.
 */
export type NamedJsonSchemas = Record<string, Schema>;

const componentRef = (name: string): string => `#/components/schemas/${name}`;

/** A `$ref` to a named schema, for the content an operation writes as JSON Schema itself (a stream's frame, an error of another shape). */
export const schemaRef = (name: string): Schema => ({ $ref: componentRef(name) });

/** The conversion that refers to `named` by `$ref` (valibot's `definitions`, pointed at the document's components). */
function referring(config: ConversionConfig, named: NamedSchemas): ConversionConfig {
  return { ...config, definitions: named, overrideRef: ({ referenceId }) => (referenceId in named ? componentRef(referenceId) : undefined) };
}

const requestable = new WeakMap<NamedSchemas, NamedSchemas>();

/**
 * The named schemas a request may refer to: those a client sends as the server writes them. A component
 * is written as the server answers (output); one whose input differs (a transform, a default) is spelt
 * out in a request body instead.
 */
function requestNames(named: NamedSchemas): NamedSchemas {
  let names = requestable.get(named);
  if (!names) {
    names = Object.fromEntries(Object.entries(named).filter(([, schema]) => JSON.stringify(toJsonSchema(schema, REQUEST)) === JSON.stringify(toJsonSchema(schema, RESPONSE))));
    requestable.set(named, names);
  }
  return names;
}

/**
 * The JSON Schema of a valibot schema, referring to the `named` schemas it uses; the `$schema`
 * marker and the named definitions (the document's components) stay out of it.
 */
export function jsonSchemaOf(schema: AnySchema, mode: 'request' | 'response' = 'response', named: NamedSchemas = {}): Schema {
  const names = mode === 'request' ? requestNames(named) : named;
  const config = mode === 'request' ? REQUEST : RESPONSE;
  const { $schema: _, $defs, ...rest } = toJsonSchema(schema, Object.keys(names).length > 0 ? referring(config, names) : config) as Schema;
  // Definitions valibot made itself (a recursive `lazy` schema) stay with the schema that refers to them.
  const own = Object.entries(($defs ?? {}) as Schema).filter(([name]) => !(name in names));
  return own.length > 0 ? { ...rest, $defs: Object.fromEntries(own) } : rest;
}

/** The document's component schemas of the named ones, each referring to the others it uses. */
export function componentSchemas(named: NamedSchemas): Record<string, Schema> {
  return toJsonSchemaDefs(named, referring(RESPONSE, named)) as Record<string, Schema>;
}

const isOptional = (schema: AnySchema): boolean => schema.type === 'optional' || schema.type === 'exact_optional' || schema.type === 'nullish';

interface PipeItem {
  type: string;
  requirement?: unknown;
  operation?: unknown;
  description?: unknown;
}

/**
 * A query parameter the route turns into a number (`transform(Number)`, then `minValue`/`maxValue`)
 * is documented as the integer it has to be, bounds and default included; the JSON Schema of the
 * string it arrives as would lose them.
 */
function numericQuery(entry: AnySchema): Schema | undefined {
  const optional = isOptional(entry) ? (entry as unknown as { wrapped: AnySchema; default?: unknown }) : undefined;
  const pipe = ((optional?.wrapped ?? entry) as { pipe?: PipeItem[] }).pipe;
  const at = pipe?.findIndex((item) => item.type === 'transform' && item.operation === Number) ?? -1;
  if (!pipe || at < 0) return undefined;
  const bound = (type: string) => pipe.slice(at + 1).find((item) => item.type === type)?.requirement;
  const description = pipe.find((item) => item.type === 'description')?.description;
  const [minimum, maximum] = [bound('min_value'), bound('max_value')];
  return {
    type: 'integer',
    ...(typeof minimum === 'number' ? { minimum } : {}),
    ...(typeof maximum === 'number' ? { maximum } : {}),
    ...(optional?.default !== undefined ? { default: Number(optional.default) } : {}),
    ...(typeof description === 'string' ? { description } : {}),
  };
}

function parameters(where: 'path' | 'query' | 'header', schema: ParameterSchema | undefined): Schema[] {
  return Object.entries(schema?.entries ?? {}).map(([name, entry]) => {
    const { description, ...json } = (where === 'query' && numericQuery(entry)) || jsonSchemaOf(entry, 'request');
    return {
      name,
      in: where,
      required: where === 'path' || !isOptional(entry),
      ...(typeof description === 'string' ? { description } : {}),
      schema: json,
    };
  });
}

const SECURITY = { admin: [{ adminKey: [] }], assistant: [{ assistantKey: [] }], operator: [{ operatorToken: [] }], none: undefined };

function response(spec: ResponseSpec, named: NamedSchemas): Schema {
  const content = { ...(spec.body ? { 'application/json': { schema: jsonSchemaOf(spec.body, 'response', named) } } : {}), ...spec.content };
  return {
    description: spec.description,
    headers: { ...COMMON_HEADERS, ...spec.headers },
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}

function sharedErrors(spec: OperationSpec): Record<string, Schema> {
  // Every request can be refused with 400: a NUL character (%00) in its URL is, whatever the route.
  return errorResponses([...new Set<ErrorStatus>([400, ...(spec.errors ?? [])])], spec.errorHeaders);
}

/** The OpenAPI operation object of one declared operation; its bodies refer to the `named` schemas they use. */
export function operation(spec: OperationSpec, named: NamedSchemas = {}): Operation {
  const params = [...parameters('path', spec.params?.path), ...parameters('query', spec.params?.query), ...parameters('header', spec.params?.header)];
  const security = Array.isArray(spec.security) ? spec.security : SECURITY[spec.security ?? 'none'];
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.tags ? { tags: spec.tags } : {}),
    ...(spec.deprecated ? { deprecated: true } : {}),
    ...(security ? { security } : {}),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(spec.body
      ? { requestBody: { required: spec.bodyRequired ?? true, content: { 'application/json': { schema: jsonSchemaOf(spec.body, 'request', named) } } } }
      : {}),
    // An operation's own response for a status wins over the shared one (integer keys keep numeric order).
    responses: {
      ...sharedErrors(spec),
      ...Object.fromEntries(Object.entries(spec.responses).map(([status, r]) => [status, response(r, named)])),
    },
    ...spec.extensions,
  };
}

/** A feature's operations as OpenAPI path items, for the document, referring to the `named` schemas. */
export function pathItems(specs: OperationSpec[], named: NamedSchemas = {}): PathItems {
  const items: PathItems = {};
  for (const spec of specs) items[spec.path] = { ...items[spec.path], [spec.method]: operation(spec, named) };
  return items;
}

/** True when A and B are the same type (each assignable to the other, optional and readonly members alike). */
export type SameType<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/**
 * Proves at compile time that a schema's inferred type is a type declared
 * elsewhere (a core type the workflow sandbox imports): `sameType<Inferred, Core>(true)`
 * does not compile when they drift apart.
 */
export function sameType<A, B>(proof: SameType<A, B>): void {
  void proof;
}
