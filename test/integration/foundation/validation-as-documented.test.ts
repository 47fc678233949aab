/**
 * The schema an operation declares is the one its route validates with: for a
 * few converted operations, a request that breaks one rule is refused by the
 * document's schema, by the valibot schema, and by the route, which answers
 * 400 naming the same field.
 */
import assert from 'node:assert/strict';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import * as v from 'valibot';
import { ProjectCreateBody } from '../../../api/admin/schemas.js';
import { ListSessionsQuery } from '../../../api/agent/v1/schemas.js';
import { createApp } from '../../../api/app.js';
import { V2Body } from '../../../api/assistant/schema.js';
import { ChatCompletionBody } from '../../../api/openai-compat/schema.js';
import { openApiDocument, type PathItems, type Schema } from '../../../api/openapi/index.js';
import { SearchBody } from '../../../api/search/schema.js';
import { seedOrg, serve, testServices } from '../../support/services.js';

const doc = openApiDocument('http://localhost');
const paths = doc.paths as PathItems;
const validator = new AjvJsonSchemaValidator();
const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;

/** The JSON Schema the document gives an operation's body, or one of its query parameters. */
function documented(path: string, method: string, query?: string): Schema {
  const op = paths[path]?.[method];
  assert.ok(op, `${method} ${path} is documented`);
  if (query) {
    const param = (op.parameters as Schema[]).find((p) => p.in === 'query' && p.name === query);
    assert.ok(param && isRecord(param.schema), `${query} is documented`);
    return param.schema;
  }
  const body = (op.requestBody as { content: Record<string, { schema: Schema }> }).content['application/json']?.schema;
  assert.ok(body);
  return body;
}

// The document's components ride along in the root schema, where `#/components/…` pointers resolve.
const accepts = (schema: Schema, value: unknown) => validator.getValidator(Object.assign({ components: doc.components, $comment: 'as documented' }, schema))(value).valid;
/** What the document checks: the body, or the query parameter as the integer it documents (it arrives as a string). */
const documentedValue = (c: Case, input: Record<string, unknown>) => (c.query ? Number(input[c.query]) : input);

interface Case {
  what: string;
  path: string;
  method: 'post' | 'get';
  url: string;
  key: 'admin' | 'assistant';
  schema: v.GenericSchema;
  /** The JSON body, or (with `query`) the query parameters. */
  input: Record<string, unknown>;
  query?: string;
  field: string;
}

describe('a request the declared schema refuses is the one the route refuses, naming the field', function () {
  const cases: Case[] = [
    {
      what: 'admin: create a project with an id that is no tenant id',
      path: '/v2/admin/projects',
      method: 'post',
      url: '/v2/admin/projects',
      key: 'admin',
      schema: ProjectCreateBody,
      input: { id: 'Not An Id', repository: 'https://git.example.com/docs.git' },
      field: 'id',
    },
    {
      what: 'search: a page size over 50',
      path: '/discovery/v1/search/{domain}',
      method: 'post',
      url: '/discovery/v1/search/docs-site',
      key: 'assistant',
      schema: SearchBody,
      input: { query: 'install', pageSize: 51 },
      field: 'pageSize',
    },
    {
      what: 'assistant v2: no fingerprint',
      path: '/discovery/v2/assistant/{domain}/message',
      method: 'post',
      url: '/discovery/v2/assistant/docs-site/message',
      key: 'assistant',
      schema: V2Body,
      input: { messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do I install it?' }] }] },
      field: 'fp',
    },
    {
      what: 'OpenAI-compatible: two answers asked for',
      path: '/discovery/v1/openai/{domain}/chat/completions',
      method: 'post',
      url: '/discovery/v1/openai/docs-site/chat/completions',
      key: 'assistant',
      schema: ChatCompletionBody,
      input: { messages: [{ role: 'user', content: 'How do I install it?' }], n: 2 },
      field: 'n',
    },
    {
      what: 'v1 agent sessions: take 0',
      path: '/v1/agent/{projectId}/jobs',
      method: 'get',
      url: '/v1/agent/docs/jobs?take=0',
      key: 'admin',
      schema: ListSessionsQuery,
      input: { take: '0' },
      query: 'take',
      field: 'take',
    },
  ];

  let url: string;
  let keys: { admin: string; assistant: string };

  before(async () => {
    const services = await testServices({ withTemporal: false });
    const org = await seedOrg(services);
    keys = { admin: org.adminKey, assistant: org.assistantKey };
    await services.tenants.putDomain({ id: 'docs-site', orgId: org.orgId, source: '.', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false });
    await services.tenants.putProject({ id: 'docs', orgId: org.orgId, repository: 'https://git.example.com/docs.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    url = (await serve(createApp(services))).url;
  });

  for (const c of cases) {
    it(c.what, async () => {
      assert.equal(v.safeParse(c.schema, c.input).success, false, 'the route’s schema refuses it');
      const schema = documented(c.path, c.method, c.query);
      assert.equal(accepts(schema, documentedValue(c, c.input)), false, 'the document refuses it');

      const res = await fetch(`${url}${c.url}`, {
        method: c.method.toUpperCase(),
        headers: { authorization: `Bearer ${keys[c.key]}`, ...(c.method === 'post' ? { 'content-type': 'application/json' } : {}) },
        ...(c.method === 'post' ? { body: JSON.stringify(c.input) } : {}),
      });
      assert.equal(res.status, 400);
      const body = (await res.json()) as { details?: Array<{ path: string }>; error?: { details?: Array<{ path: string }> } };
      // The OpenAI-compatible endpoint answers in OpenAI's shape, with the same details inside `error`.
      const details = body.details ?? (isRecord(body.error) ? body.error.details : undefined) ?? [];
      assert.deepEqual(
        details.map((d) => d.path),
        [c.field],
      );
    });
  }

  it('and the same request with the field put right passes both schemas', () => {
    const fixed: Record<string, unknown> = { id: 'docs-two', pageSize: 50, fp: 'reader-1', n: 1, take: '1' };
    for (const c of cases) {
      const input = { ...c.input, [c.field]: fixed[c.field] };
      assert.ok(v.safeParse(c.schema, input).success, `${c.what}: the route's schema`);
      assert.ok(accepts(documented(c.path, c.method, c.query), documentedValue(c, input)), `${c.what}: the document`);
    }
  });
});
