import { llmsRouter } from '../../../api/llms/index.js';
import { mcpRouter } from '../../../api/mcp/index.js';
import { openAiCompatRouter } from '../../../api/openai-compat/index.js';
import { conforms } from '../../support/openapi-conforms.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { aiToolsWorld } from './world.js';

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
