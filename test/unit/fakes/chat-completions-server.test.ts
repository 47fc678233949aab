import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startFakeModel } from '../../fakes/chat-completions-server.js';

describe('scripted Chat Completions server (stands in for an OpenAI-compatible provider)', () => {
  it('answers the real openai client with tool calls, streamed text, embeddings and errors', async () => {
    const fake = await startFakeModel([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'index.md' } }] },
      { text: 'Hello there, world' },
      { error: { status: 429, retryAfterSeconds: 2 } },
    ]);
    const client = new OpenAI({ baseURL: fake.baseUrl, apiKey: 'test-key', maxRetries: 0 });
    const first = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    const call = first.choices[0]?.message.tool_calls?.[0];
    assert.ok(call && call.type === 'function');
    assert.equal(call.function.name, 'read_file');
    assert.deepEqual(JSON.parse(call.function.arguments), { path: 'index.md' });

    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    assert.equal(text, 'Hello there, world');

    await assert.rejects(
      client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      (err: unknown) => err instanceof OpenAI.APIError && err.status === 429 && err.headers?.get('retry-after') === '2',
    );
    const emb = await client.embeddings.create({ model: 'e', input: ['a', 'b'] });
    assert.equal(emb.data.length, 2);
    assert.equal(fake.requests.length, 4);
    assert.equal(fake.requests[0]?.headers.authorization, 'Bearer test-key');
  });
});
