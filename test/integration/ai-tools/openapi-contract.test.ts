import assert from 'node:assert/strict';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { llmsRouter } from '../../../api/llms/index.js';
import { mcpRouter } from '../../../api/mcp/index.js';
import { openAiCompatRouter } from '../../../api/openai-compat/index.js';
import { openApiDocument, type PathItems, type Schema } from '../../../api/openapi/index.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { aiToolsWorld } from './world.js';

const doc = openApiDocument('http://localhost');
const paths = doc.paths as PathItems;
const validator = new AjvJsonSchemaValidator();
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * Checks a real response against the document: its status is documented for
 * the operation, and a JSON body matches the documented schema (`$ref`s
 * resolve against the document's components).
 */
async function conforms(template: string, method: string, res: Response): Promise<void> {
  const operation: Schema | undefined = paths[template]?.[method];
  assert.ok(operation, `${method} ${template} is documented`);
  const responses = operation.responses;
  const response = isRecord(responses) ? responses[String(res.status)] : undefined;
  assert.ok(isRecord(response), `${method} ${template} documents ${res.status}`);
  const type = (res.headers.get('content-type') ?? '').split(';')[0] ?? '';
  const content = isRecord(response.content) ? response.content : {};
  if (res.status === 304 || res.status === 202) return;
  assert.ok(type in content, `${method} ${template} ${res.status} documents ${type}`);
  const media = content[type];
  if (type !== 'application/json' || !isRecord(media) || !isRecord(media.schema)) return;
  // The document's components ride along in the root schema, where `#/components/…` pointers resolve.
  const schema = Object.assign({ components: doc.components, $comment: `${method} ${template} ${res.status}` }, media.schema);
  const check = validator.getValidator(schema);
  const result = check(await res.json());
  assert.ok(result.valid, `${method} ${template} ${res.status}: ${result.errorMessage}`);
}

describe('the OpenAPI document matches the AI-tools endpoints', () => {
  it('documents each status and body the MCP, OpenAI-compatible and llms endpoints answer with', async () => {
    const w = await aiToolsWorld({ features: [mcpRouter, openAiCompatRouter, llmsRouter], orgLimits: { assistantPerKeyPerMonth: 2 } });
    onSuiteEnd(w.close);
    const key = { authorization: `Bearer ${w.org.assistantKey}` };
    const json = { 'content-type': 'application/json' };
    const mcpAccept = { accept: 'application/json, text/event-stream' };
    const call = (p: string, init: RequestInit = {}) => fetch(`${w.url}${p}`, init);
    const post = (p: string, body: unknown, headers: Record<string, string> = { ...key, ...json }) => call(p, { method: 'POST', headers, body: JSON.stringify(body) });
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

    const M = '/mcp/{domain}';
    await conforms(M, 'post', await post('/mcp/skylark', initialize, { ...key, ...json, ...mcpAccept }));
    await conforms(M, 'post', await post('/mcp/skylark', { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...key, ...json, ...mcpAccept }));
    await conforms(M, 'post', await post('/mcp/skylark', { hello: 'world' }, { ...key, ...json, ...mcpAccept }));
    await conforms(M, 'post', await post('/mcp/skylark', initialize, { ...key, ...json }));
    await conforms(M, 'post', await post('/mcp/skylark', initialize, { ...json, ...mcpAccept }));
    await conforms(M, 'post', await post('/mcp/skylark', initialize, { authorization: `Bearer ${w.org.adminKey}`, ...json, ...mcpAccept }));
    await conforms(M, 'post', await call('/mcp/skylark', { method: 'POST', headers: { ...key, 'content-type': 'text/plain', ...mcpAccept }, body: 'x' }));
    await conforms(M, 'get', await call('/mcp/skylark'));
    await conforms(M, 'delete', await call('/mcp/skylark', { method: 'DELETE' }));

    const C = '/discovery/v1/openai/{domain}/chat/completions';
    const question = { model: 'x', messages: [{ role: 'user', content: 'How do retries work?' }] };
    await conforms(C, 'post', await post('/discovery/v1/openai/skylark/chat/completions', question));
    const streamed = await post('/discovery/v1/openai/skylark/chat/completions', { ...question, stream: true });
    await conforms(C, 'post', streamed);
    await streamed.text();
    await conforms(C, 'post', await post('/discovery/v1/openai/skylark/chat/completions', question));
    await conforms(C, 'post', await post('/discovery/v1/openai/skylark/chat/completions', { messages: [] }));
    await conforms(C, 'post', await post('/discovery/v1/openai/nope/chat/completions', question));
    await conforms(C, 'post', await post('/discovery/v1/openai/skylark/chat/completions', question, json));
    await conforms(C, 'post', await call('/discovery/v1/openai/skylark/chat/completions', { method: 'POST', headers: { ...key, ...json }, body: '{"messages": [' }));
    await conforms('/discovery/v1/openai/{domain}/models', 'get', await call('/discovery/v1/openai/skylark/models', { headers: key }));
    await conforms('/discovery/v1/openai/{domain}/models/{model}', 'get', await call('/discovery/v1/openai/skylark/models/quire', { headers: key }));
    await conforms('/discovery/v1/openai/{domain}/models/{model}', 'get', await call('/discovery/v1/openai/skylark/models/gpt', { headers: key }));

    const first = await call('/discovery/v1/llms/skylark.txt');
    await conforms('/discovery/v1/llms/{domain}.txt', 'get', first);
    await conforms('/discovery/v1/llms/{domain}.txt', 'get', await call('/discovery/v1/llms/skylark.txt', { headers: { 'if-none-match': first.headers.get('etag') ?? '' } }));
    await conforms('/discovery/v1/llms/{domain}.txt', 'get', await call('/discovery/v1/llms/nope.txt'));
    await conforms('/discovery/v1/llms/{domain}/llms.txt', 'get', await call('/discovery/v1/llms/skylark/llms.txt'));
    await conforms('/discovery/v1/llms/{domain}/llms-full.txt', 'get', await call('/discovery/v1/llms/skylark/llms-full.txt'));
  });
});
