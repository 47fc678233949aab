/**
 * A rating, a reader's erasure of their thread, a search click and a page view spend the assistant
 * limits only when Quire accepts them: one refused after it counted (an unknown thread or answer,
 * the database down, a recorder that fails) gives its unit back and carries no `RateLimit-*` headers. Over real HTTP, the assistant's
 * threads on files, the limits counted in memory and in a real redis-server.
 */
import assert from 'node:assert/strict';
import { analyticsRouter } from '../../../api/analytics/index.js';
import { UnavailableError } from '../../../core/errors.js';
import { startRedis } from '../../support/redis.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { assistantWorld, userMessage, type AssistantWorld } from '../assistant/harness.js';

const down = () => Promise.reject(new UnavailableError('database'));

/** The status of an answer, read whole, and whether it told of a unit spent. */
async function answered(res: Response) {
  await res.arrayBuffer();
  const told = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].filter((h) => res.headers.has(h));
  return { status: res.status, remaining: res.headers.get('ratelimit-remaining'), told: told.length > 0 };
}

for (const store of ['memory', 'redis'] as const) {
  describe(`feedback, thread erasure, search clicks and page views refused after counting spend nothing (limits in ${store})`, function () {
    this.timeout(60_000);
    let world: AssistantWorld;
    before(async () => {
      const env = store === 'redis' ? { REDIS_URL: (await startRedis()).url } : undefined;
      world = await assistantWorld({ features: [analyticsRouter], orgLimits: { assistantPerOrgPerHour: 50 }, ...(env ? { env } : {}) });
      onSuiteEnd(() => world.close());
    });

    const post = (path: string, body: unknown) =>
      fetch(`${world.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${world.org.assistantKey}` },
        body: JSON.stringify(body),
      }).then(answered);

    /** A new thread with one answer. */
    async function converse(): Promise<{ id: string; key: string; messageId: string }> {
      const res = await world.post('v2', { fp: 'fp-reader', messages: [userMessage('How do I install the CLI?')] });
      assert.equal(res.status, 200);
      const messageId = /msg_[0-9a-f-]{36}/.exec(await res.text())?.[0] ?? '';
      await world.services.completions.flush();
      return { id: res.headers.get('x-thread-id') ?? '', key: res.headers.get('x-thread-key') ?? '', messageId };
    }

    it('a rating of an unknown answer or thread (404) or with the database down (503) gives its unit back', async () => {
      const thread = await converse();
      const rate = (o: Partial<{ threadKey: string; messageId: string; helpful: boolean }> = {}) =>
        post('/discovery/v1/assistant/docs/feedback', { threadId: thread.id, threadKey: thread.key, messageId: thread.messageId, helpful: true, ...o });
      const first = await rate();
      assert.equal(first.status, 204);
      const left = Number(first.remaining);
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(await rate({ messageId: 'msg_00000000-0000-0000-0000-000000000000' }), { status: 404, remaining: null, told: false }, 'no such answer');
        assert.deepEqual(await rate({ threadKey: 'not-the-key' }), { status: 404, remaining: null, told: false }, 'not the holder');
      }
      const { threads } = world.services;
      const load = threads.load.bind(threads);
      threads.load = down;
      try {
        assert.deepEqual(await rate(), { status: 503, remaining: null, told: false });
      } finally {
        threads.load = load;
      }
      const { store: analytics } = world.services.analytics;
      const putFeedback = analytics.putFeedback.bind(analytics);
      analytics.putFeedback = down;
      try {
        assert.deepEqual(await rate(), { status: 503, remaining: null, told: false }, 'the rating could not be stored');
      } finally {
        analytics.putFeedback = putFeedback;
      }
      assert.deepEqual(await rate({ helpful: false }), { status: 204, remaining: String(left - 1), told: true }, 'only the two accepted ratings spent');
    });

    it('an erasure of an unknown thread, with another key (404) or the database down (503) gives its unit back', async () => {
      const mine = await converse();
      const theirs = await converse();
      const erase = (threadId: string, threadKey: string) =>
        fetch(`${world.url}/discovery/v1/assistant/docs/threads/${threadId}`, { method: 'DELETE', headers: { authorization: `Bearer ${world.org.assistantKey}`, 'x-thread-key': threadKey } }).then(answered);
      const first = await erase(theirs.id, theirs.key);
      assert.equal(first.status, 204);
      const left = Number(first.remaining);
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(await erase(theirs.id, theirs.key), { status: 404, remaining: null, told: false }, 'erased already');
        assert.deepEqual(await erase(mine.id, theirs.key), { status: 404, remaining: null, told: false }, 'another thread’s key');
        assert.deepEqual(await erase('thr_unknown', mine.key), { status: 404, remaining: null, told: false }, 'no such thread');
      }
      const { threads } = world.services;
      const load = threads.load.bind(threads);
      threads.load = down;
      try {
        assert.deepEqual(await erase(mine.id, mine.key), { status: 503, remaining: null, told: false });
      } finally {
        threads.load = load;
      }
      assert.deepEqual(await erase(mine.id, mine.key), { status: 204, remaining: String(left - 1), told: true });
    });

    /** Runs `work` while the analytics recorder's `method` throws, as a recorder that cannot write would. */
    async function whileFailing(method: 'record' | 'recordView', work: () => Promise<void>): Promise<void> {
      // The recorder's own method is shadowed for the while, then the shadow is removed.
      const recorder: Record<string, unknown> = world.services.analytics as unknown as Record<string, unknown>;
      recorder[method] = () => {
        throw new Error('the recorder failed');
      };
      try {
        await work();
      } finally {
        delete recorder[method];
      }
    }

    it('a click that cannot be recorded (500) gives its unit back', async () => {
      const click = () => post('/discovery/v1/search/docs/click', { searchId: 'srch_00000000-0000-0000-0000-000000000000', path: '/intro' });
      const first = await click();
      assert.equal(first.status, 204);
      const left = Number(first.remaining);
      await whileFailing('record', async () => {
        for (let i = 0; i < 3; i++) assert.deepEqual(await click(), { status: 500, remaining: null, told: false });
      });
      assert.deepEqual(await click(), { status: 204, remaining: String(left - 1), told: true });
    });

    it('a page view that cannot be recorded (500) gives the address its unit back', async () => {
      const view = () =>
        fetch(`${world.url}/discovery/v1/analytics/docs/page-view`, {
          method: 'POST',
          headers: { origin: 'https://docs.example.com', 'content-type': 'text/plain' },
          body: JSON.stringify({ key: world.org.assistantKey, path: '/intro' }),
        }).then(answered);
      const first = await view();
      assert.equal(first.status, 204);
      const left = Number(first.remaining);
      await whileFailing('recordView', async () => {
        for (let i = 0; i < 3; i++) assert.deepEqual(await view(), { status: 500, remaining: null, told: false });
      });
      assert.deepEqual(await view(), { status: 204, remaining: String(left - 1), told: true });
    });
  });
}
