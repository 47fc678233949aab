import assert from 'node:assert/strict';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import * as v from 'valibot';
import { sseFrame } from '../../../api/agent/index.js';
import { CreateJobBody, JobViewSchema } from '../../../api/agent/schemas.js';
import { TodoSchema } from '../../../core/jobs/job-schema.js';
import { openApiDocument, type PathItems } from '../../../api/openapi/index.js';
import { jsonSchemaOf, operation, sameType } from '../../../api/openapi/operation.js';
import { OPERATIONS } from '../../../api/openapi/paths/index.js';
import { newJobRecord, toJobView } from '../../../core/jobs/index.js';
import { JobEventSchema, parseJobEventJson } from '../../../core/jobs/job-event-schema.js';

const doc = openApiDocument('http://localhost');
const paths = doc.paths as PathItems;
const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const validator = new AjvJsonSchemaValidator();

/** Every value under `node`, depth first. */
function* walk(node: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(node)) for (const item of node) yield* walk(item);
  else if (isRecord(node)) {
    yield node;
    for (const value of Object.values(node)) yield* walk(value);
  }
}

const check = (schema: Record<string, unknown>, value: unknown) => validator.getValidator(Object.assign({ components: doc.components, $comment: 'declared-operations' }, schema))(value);

describe('the OpenAPI document built from declared operations', () => {
  it('is OpenAPI 3.1 with unique operation ids, every $ref resolving and every path parameter in its template', () => {
    assert.equal(doc.openapi, '3.1.0');
    const ids = Object.values(paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    assert.equal(new Set(ids).size, ids.length, 'operation ids are unique');
    for (const node of walk(doc)) {
      if (typeof node.$ref !== 'string') continue;
      const target = node.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), doc);
      assert.ok(target !== undefined, `${node.$ref} resolves`);
    }
    for (const [template, item] of Object.entries(paths)) {
      const inTemplate = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      for (const [method, op] of Object.entries(item)) {
        const declared = (Array.isArray(op.parameters) ? op.parameters : []).filter((p) => isRecord(p) && p.in === 'path').map((p) => (p as { name: string }).name);
        assert.deepEqual(declared.sort(), inTemplate, `${method} ${template}: path parameters`);
      }
    }
  });

  it('every JSON response schema compiles', () => {
    for (const [template, item] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(isRecord(op.responses) ? op.responses : {})) {
          const schema = isRecord(response) && isRecord(response.content) ? (response.content['application/json'] as { schema?: Record<string, unknown> } | undefined)?.schema : undefined;
          if (schema) assert.doesNotThrow(() => check(schema, null), `${method} ${template} ${status}`);
        }
      }
    }
  });

  it('a declared operation documents the very schema its route validates with', () => {
    const create = paths['/v2/agent/{projectId}/job']?.post;
    const body = (create?.requestBody as { content: { 'application/json': { schema: Record<string, unknown> } } }).content['application/json'].schema;
    assert.deepEqual(body, jsonSchemaOf(CreateJobBody, 'request'));
    // What the route's schema refuses, the document refuses too, and the reverse.
    for (const candidate of [{ prompt: 'Fix typos' }, { prompt: ' \n ' }, { prompt: '' }, {}, { prompt: 'x', asDraft: 'yes' }]) {
      assert.equal(check(body, candidate).valid, v.safeParse(CreateJobBody, candidate).success, JSON.stringify(candidate));
    }
  });

  it('a real job view conforms to the documented job, and the schema parses it back unchanged', () => {
    const view = toJobView(newJobRecord({ projectId: 'docs', repository: 'https://git.example.com/docs.git', ref: 'main', model: 'gpt' }));
    const created = paths['/v2/agent/{projectId}/job']?.post?.responses as Record<string, { content: { 'application/json': { schema: Record<string, unknown> } } }>;
    const result = check(created['201']!.content['application/json'].schema, view);
    assert.ok(result.valid, result.errorMessage);
    assert.deepEqual(v.parse(JobViewSchema, view), view);
    assert.equal(check(created['201']!.content['application/json'].schema, { ...view, status: 'paused' }).valid, false);
  });

  it('writes a named schema out once, as a component, and refers to it wherever an operation answers with it', () => {
    const schemas = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
    // The job's plan items are a named schema of their own (a v1 session has them too), which the job refers to.
    assert.deepEqual(schemas.Job, jsonSchemaOf(JobViewSchema, 'response', { Todo: TodoSchema }));
    assert.deepEqual(schemas.Todo, jsonSchemaOf(TodoSchema));
    assert.deepEqual((schemas.AgentSessionV1!.properties as Record<string, Record<string, unknown>>).todos!.items, { $ref: '#/components/schemas/Todo' });
    const job = { $ref: '#/components/schemas/Job' };
    const body = (path: string, method: string, status: string) =>
      (paths[path]?.[method]?.responses as Record<string, { content: { 'application/json': { schema: Record<string, unknown> } } }>)[status]!.content['application/json'].schema;
    assert.deepEqual(body('/v2/agent/{projectId}/job', 'post', '201'), job);
    assert.deepEqual(body('/v2/agent/{projectId}/job/{id}', 'get', '200'), job);
    assert.deepEqual((body('/v2/agent/{projectId}/jobs', 'get', '200').properties as Record<string, Record<string, unknown>>).jobs!.items, job);
    assert.ok(!JSON.stringify(paths['/v2/agent/{projectId}/job/{id}']).includes('"todos"'), "the job's fields are written in its component only");
  });

  it('the views, visitors and caller-stats reports refer to the named Traffic, PathTraffic, TrafficDay and QuestionsDay, written once as components', () => {
    const schemas = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const report = (path: string) =>
      (paths[path]?.get?.responses as Record<string, { content: { 'application/json': { schema: { description?: string; properties: Record<string, Record<string, unknown>> } } } }>)['200']!.content['application/json']
        .schema;
    const views = report('/v1/analytics/{domain}/views');
    const visitors = report('/v1/analytics/{domain}/visitors');
    for (const [body, rows] of [
      [views, 'views'],
      [visitors, 'visitors'],
    ] as const) {
      assert.deepEqual(body.properties.totals, ref('Traffic'));
      assert.deepEqual(body.properties[rows]!.items, ref('PathTraffic'));
      assert.deepEqual(body.properties.days!.items, ref('TrafficDay'));
    }
    // The totals' wording, which a $ref here takes none of, is the report's.
    assert.match(views.description ?? '', /site-wide page views of the period/);
    assert.match(visitors.description ?? '', /site-wide visitors of the period/);
    assert.deepEqual(report('/v1/analytics/{domain}/assistant/caller-stats').properties.days!.items, ref('QuestionsDay'));
    assert.deepEqual(Object.keys(schemas.TrafficDay!.properties as object), ['date', 'human', 'ai', 'total']);
    assert.deepEqual(Object.keys(schemas.QuestionsDay!.properties as object), ['date', 'total', 'answered', 'unanswered']);
    for (const path of ['/v1/analytics/{domain}/views', '/v1/analytics/{domain}/visitors', '/v1/analytics/{domain}/assistant/caller-stats'])
      assert.ok(!JSON.stringify(paths[path]).includes('"human"') && !JSON.stringify(paths[path]).includes('"The UTC day, YYYY-MM-DD."'), `${path}: the counts are written in their components only`);
  });

  it('a request refers to a named schema only where the client sends it as the server writes it', () => {
    const Count = v.pipe(v.string(), v.transform(Number), v.number());
    const Plain = v.object({ a: v.string() });
    const Body = v.object({ count: Count, plain: Plain });
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    assert.deepEqual(jsonSchemaOf(Body, 'response', { Count, Plain }).properties, { count: ref('Count'), plain: ref('Plain') });
    assert.deepEqual(jsonSchemaOf(Body, 'request', { Count, Plain }).properties, { count: { type: 'string' }, plain: ref('Plain') });
  });

  it("names the job event the stream's data lines carry, from the schema the event log parses with, and a frame's event conforms to it", () => {
    const stream = paths['/v2/agent/{projectId}/job/{id}/events']?.get?.responses as Record<string, { content: Record<string, { schema: { properties: { data: Record<string, unknown> } } }> }>;
    assert.deepEqual(stream['200']!.content['text/event-stream']!.schema.properties.data.contentSchema, { $ref: '#/components/schemas/JobEvent' });
    const { description, ...named } = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas.JobEvent!;
    assert.deepEqual(named, jsonSchemaOf(JobEventSchema));
    assert.match(String(description), /each `data:` line of the job event stream/);
    const event = parseJobEventJson(sseFrame({ seq: 3, type: 'tool.step', time: '2026-11-28T12:00:00.000Z', jobId: 'job_1', projectId: 'docs', data: { tool: 'edit', path: 'a.md' } }).split('\ndata: ')[1]!);
    const job = { $ref: '#/components/schemas/JobEvent' };
    assert.ok(event && check(job, event).valid);
    assert.equal(check(job, { ...event, type: 'job.paused' }).valid, false);
  });

  it('each operation answers its declared errors with the shared error shape and, for 503, Retry-After', () => {
    type Response = { headers: Record<string, unknown>; content: Record<string, { schema: unknown }> };
    const shared = (doc.components as { responses: Record<string, Response> }).responses;
    for (const spec of OPERATIONS) {
      const responses = operation(spec).responses as Record<string, Response | { $ref: string }>;
      for (const status of spec.errors ?? []) {
        const at = responses[String(status)];
        const r = at && '$ref' in at ? shared[at.$ref.replace('#/components/responses/', '')] : at;
        assert.deepEqual(r?.content['application/json']?.schema, { $ref: '#/components/schemas/Error' }, `${spec.operationId} ${status}`);
        if (status === 503) assert.ok(r?.headers['Retry-After'], `${spec.operationId}: 503 has Retry-After`);
      }
    }
  });

  it('writes each shared error response once, as a component, and refers to it; with the CORS headers, as the Cors… component, on the endpoints browsers call', () => {
    const responses = (doc.components as { responses: Record<string, Record<string, unknown>> }).responses;
    assert.deepEqual((responses.NotFound?.content as Record<string, unknown>)['application/json'], { schema: { $ref: '#/components/schemas/Error' } });
    const job = paths['/v2/agent/{projectId}/job/{id}']?.get?.responses as Record<string, unknown>;
    assert.deepEqual(job['404'], { $ref: '#/components/responses/NotFound' });
    assert.deepEqual(job['503'], { $ref: '#/components/responses/Unavailable' });
    // The errors of the endpoints browsers call carry the CORS headers too: the shared responses with them, once each.
    const cors = { $ref: '#/components/headers/Access-Control-Allow-Origin' };
    assert.deepEqual((responses.CorsUnavailable?.headers as Record<string, unknown>)['Access-Control-Allow-Origin'], cors);
    assert.ok((responses.CorsUnavailable?.headers as Record<string, unknown>)['Retry-After']);
    for (const path of ['/discovery/v2/assistant/{domain}/message', '/discovery/v1/assistant/{domain}/feedback']) {
      const post = paths[path]?.post?.responses as Record<string, unknown>;
      assert.deepEqual(post['503'], { $ref: '#/components/responses/CorsUnavailable' }, path);
    }
  });

  it('sameType tells types apart at compile time', () => {
    sameType<{ a: string; b?: number }, { a: string; b?: number }>(true);
    // @ts-expect-error a schema whose type drifted from the core type does not compile
    sameType<{ a: string }, { a: string; b: number }>(true);
    // @ts-expect-error nor does an optional member made required
    sameType<{ a?: string }, { a: string }>(true);
  });
});
