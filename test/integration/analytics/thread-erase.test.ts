/**
 * A reader's conversation removed on request, before its retention: by the reader (the thread's
 * key) or by an admin of the organisation. The real API over HTTP, the completion writer, SQLite
 * (thread-store.test.ts erases on both dialects).
 */
import assert from 'node:assert/strict';
import { analyticsRouter } from '../../../api/analytics/index.js';
import { assistantWorld, userMessage, type AssistantWorld } from '../assistant/harness.js';
import { seedOrg } from '../../support/services.js';

const PAGE = 'http://pages.example.test:8080';

describe('erasing an assistant thread on request', () => {
  let world: AssistantWorld;
  before(async () => {
    world = await assistantWorld({ script: () => ({ text: 'Install it with npm [1].' }), features: [analyticsRouter] });
  });
  after(() => world.close());

  /** A new thread with one answer, rated; written (the thread, its analytics record and the rating). */
  async function converse(question: string): Promise<{ id: string; key: string }> {
    const res = await world.post('v2', { fp: 'fp-reader', messages: [userMessage(question)] });
    assert.equal(res.status, 200);
    const messageId = /msg_[0-9a-f-]{36}/.exec(await res.text())?.[0] ?? '';
    const thread = { id: res.headers.get('x-thread-id') ?? '', key: res.headers.get('x-thread-key') ?? '' };
    await world.services.completions.flush();
    const rated = await fetch(`${world.url}/discovery/v1/assistant/docs/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${world.org.assistantKey}` },
      body: JSON.stringify({ threadId: thread.id, threadKey: thread.key, messageId, helpful: false, comment: 'my own words' }),
    });
    assert.equal(rated.status, 204);
    return thread;
  }
  const admin = (method: 'GET' | 'DELETE', route: string, key = world.org.adminKey) => fetch(`${world.url}${route}`, { method, headers: { authorization: `Bearer ${key}` } });
  const erase = (threadId: string, headers: Record<string, string>, key = world.org.assistantKey) =>
    fetch(`${world.url}/discovery/v1/assistant/docs/threads/${threadId}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}`, ...headers } });
  /** What the analytics API still shows of the thread: its conversations and its ratings. */
  async function shown(threadId: string): Promise<[number, number]> {
    const conversations = (await (await admin('GET', '/v1/analytics/docs/assistant')).json()) as { conversations: Array<{ threadId: string | null }> };
    const feedback = (await (await admin('GET', '/v1/analytics/docs/feedback')).json()) as { feedback: Array<{ threadId: string }> };
    return [conversations.conversations.filter((c) => c.threadId === threadId).length, feedback.feedback.filter((f) => f.threadId === threadId).length];
  }

  it('the reader erases their own thread with its key: the thread, its answers and ratings go at once; a wrong key or another thread is 404', async () => {
    const mine = await converse('How do I install the CLI?');
    const theirs = await converse('How do I configure webhooks?');
    assert.deepEqual(await shown(mine.id), [1, 1]);

    const preflight = await fetch(`${world.url}/discovery/v1/assistant/docs/threads/${mine.id}`, {
      method: 'OPTIONS',
      headers: { origin: PAGE, 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'authorization,x-thread-key' },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /X-Thread-Key/);
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /DELETE/);

    assert.equal((await erase(mine.id, {})).status, 404, 'no key');
    assert.equal((await erase(mine.id, { 'x-thread-key': theirs.key })).status, 404, 'another thread’s key');
    assert.equal((await erase(mine.id, { 'x-thread-key': mine.key }, world.org.adminKey)).status, 403, 'an admin key is not the reader’s');
    assert.deepEqual(await shown(mine.id), [1, 1], 'refused, nothing went');

    const done = await erase(mine.id, { 'x-thread-key': mine.key });
    assert.equal(done.status, 204);
    assert.ok(done.headers.get('ratelimit-remaining'), 'counted with the assistant’s limits');
    assert.equal((await admin('GET', `/v1/admin/threads/${mine.id}`)).status, 404);
    assert.equal((await admin('GET', `/v1/analytics/docs/assistant/threads/${mine.id}`)).status, 404);
    assert.deepEqual(await shown(mine.id), [0, 0]);
    assert.equal((await erase(mine.id, { 'x-thread-key': mine.key })).status, 404, 'gone: erased once');
    // Continuing it is refused like an unknown thread.
    const resumed = await world.post('v2', { fp: 'fp-reader', threadId: mine.id, threadKey: mine.key, messages: [userMessage('And on Windows?')] });
    assert.equal(resumed.status, 404);
    assert.deepEqual(await shown(theirs.id), [1, 1], 'another reader’s thread stays');
  });

  it('an admin erases one thread of the organisation’s domain; another organisation’s admin gets 404', async () => {
    const thread = await converse('Where are the release notes?');
    const rival = await seedOrg(world.services, 'rival');
    assert.equal((await admin('DELETE', `/v1/analytics/docs/assistant/threads/${thread.id}`, rival.adminKey)).status, 404);
    assert.equal((await admin('DELETE', `/v1/analytics/docs/assistant/threads/${thread.id}`, world.org.assistantKey)).status, 403);
    assert.deepEqual(await shown(thread.id), [1, 1]);
    assert.equal((await admin('DELETE', `/v1/analytics/docs/assistant/threads/${thread.id}`)).status, 204);
    assert.deepEqual(await shown(thread.id), [0, 0]);
    assert.equal((await admin('GET', `/v1/admin/threads/${thread.id}`)).status, 404);
    assert.equal((await admin('DELETE', `/v1/analytics/docs/assistant/threads/${thread.id}`)).status, 404, 'nothing left to erase');
  });
});
