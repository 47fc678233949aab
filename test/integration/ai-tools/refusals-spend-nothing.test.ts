/**
 * The search and page endpoints, llms.txt, the OpenAI-compatible endpoint and the MCP server's tools spend
 * the assistant limits only for what Quire answers: a request refused after it counted (a page
 * that is not there, the search engine down, the model failing before the answer) gives its unit
 * back and carries no `RateLimit-*` headers. Over real HTTP, with the limits counted in memory and
 * in a real redis-server.
 */
import assert from 'node:assert/strict';
import { llmsRouter } from '../../../api/llms/index.js';
import { mcpRouter } from '../../../api/mcp/index.js';
import { openAiCompatRouter } from '../../../api/openai-compat/index.js';
import { searchRouter } from '../../../api/search/index.js';
import { UnavailableError } from '../../../core/errors.js';
import type { OrgLimits } from '../../../core/tenants/index.js';
import type { Script } from '../../fakes/chat-completions-server.js';
import { startRedis } from '../../support/redis.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { aiToolsWorld, type WorldOptions } from './world.js';

type World = Awaited<ReturnType<typeof aiToolsWorld>>;

const down = () => Promise.reject(new UnavailableError('search engine'));
const QUESTION = 'How do I verify webhook signatures?';

for (const store of ['memory', 'redis'] as const) {
  describe(`search, llms.txt, OpenAI and MCP requests refused after counting spend nothing (limits in ${store})`, function () {
    this.timeout(60_000);

    /** The example docs' world, its limits in memory or in a redis-server of its own. */
    const world = async (features: WorldOptions['features'], orgLimits: OrgLimits, script?: Script): Promise<World> => {
      const env = store === 'redis' ? { REDIS_URL: (await startRedis()).url } : undefined;
      const w = await aiToolsWorld({ features, orgLimits, ...(script ? { script } : {}), ...(env ? { env } : {}) });
      onSuiteEnd(w.close);
      return w;
    };
    const post = (w: World, path: string, body: unknown) =>
      fetch(`${w.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${w.org.assistantKey}` },
        body: JSON.stringify(body),
      });
    /** The status and `RateLimit-Remaining` of an answer, read whole. */
    const answered = async (res: Response) => {
      await res.arrayBuffer();
      return { status: res.status, remaining: res.headers.get('ratelimit-remaining') };
    };

    it('a page that is not there (404) and the search engine down (503) give the unit back; a search that finds nothing spends', async () => {
      const w = await world([searchRouter], { assistantPerOrgPerHour: 5 });
      const search = (query = 'retries') => post(w, '/discovery/v1/search/skylark', { query }).then(answered);
      const page = (path: string) => post(w, '/discovery/v1/page/skylark', { path }).then(answered);
      assert.deepEqual(await search(), { status: 200, remaining: '4' });
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(await page('/nope'), { status: 404, remaining: null }, 'a refusal tells of no unit spent');
        assert.deepEqual(await page('/enterprise/sso'), { status: 404, remaining: null }, 'a page of a group the caller is not in');
      }
      assert.deepEqual(await page('/quickstart'), { status: 200, remaining: '3' });

      const { search: searching, getPage } = w.index;
      w.index.search = down;
      w.index.getPage = down;
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(await search(), { status: 503, remaining: null });
        assert.deepEqual(await page('/quickstart'), { status: 503, remaining: null });
      }
      w.index.search = searching;
      w.index.getPage = getPage;
      assert.deepEqual(await search('zzzzqqq nothing matches this'), { status: 200, remaining: '2' }, 'an empty result is an answer');
      assert.deepEqual(await search(), { status: 200, remaining: '1' });
    });

    it('llms.txt and llms-full.txt with the search engine down (503) give the unit back; a 304 is served, and spent', async () => {
      const w = await world([llmsRouter], { assistantPerIpPerDay: 5 });
      const get = async (file: string, headers: Record<string, string> = {}) => {
        const res = await fetch(`${w.url}/discovery/v1/llms/skylark/${file}`, { headers });
        const told = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].some((h) => res.headers.has(h));
        return { ...(await answered(res)), told, etag: res.headers.get('etag') };
      };
      const first = await get('llms.txt');
      assert.deepEqual({ status: first.status, remaining: first.remaining }, { status: 200, remaining: '4' });

      const { generation, listPages } = w.index;
      w.index.generation = down;
      for (let i = 0; i < 3; i++) assert.deepEqual(await get('llms.txt'), { status: 503, remaining: null, told: false, etag: null }, 'the index down');
      w.index.generation = generation;
      w.index.listPages = down;
      for (let i = 0; i < 3; i++) assert.deepEqual(await get('llms-full.txt'), { status: 503, remaining: null, told: false, etag: null }, 'the pages cannot be listed');
      w.index.listPages = listPages;

      assert.deepEqual(await get('llms-full.txt').then((r) => [r.status, r.remaining]), [200, '3']);
      assert.deepEqual(await get('llms.txt', { 'if-none-match': first.etag ?? '' }).then((r) => [r.status, r.remaining]), [304, '2']);
    });

    it('a completion refused before its answer (the model failing or rate limited, retrieval down) gives the unit back; a stream that began spends', async () => {
      const script: Script = [
        { text: 'Compare the signature [1].' },
        { error: { status: 500 } },
        { error: { status: 429, retryAfterSeconds: 7 } },
        { failMidStream: { text: 'Verify the signature with your secret and', afterChars: 20 } },
        { text: 'Compare the signature [1].' },
      ];
      const w = await world([openAiCompatRouter], { assistantPerKeyPerMonth: 6 }, script);
      const complete = (stream = false) => post(w, '/discovery/v1/openai/skylark/chat/completions', { model: 'quire', messages: [{ role: 'user', content: QUESTION }], stream }).then(answered);
      assert.deepEqual(await complete(), { status: 200, remaining: '5' });
      assert.deepEqual(await complete(), { status: 502, remaining: null }, 'the model failed: no answer, nothing spent');
      assert.deepEqual(await complete(), { status: 503, remaining: null }, 'the provider rate limits Quire: nothing spent');

      const searching = w.index.search;
      w.index.search = down;
      assert.deepEqual(await complete(), { status: 503, remaining: null });
      assert.deepEqual(await complete(true), { status: 503, remaining: null }, 'refused before its stream');
      w.index.search = searching;

      // The stream began (200), then the model broke off: an answer served, and spent.
      assert.deepEqual(await complete(true), { status: 200, remaining: '4' });
      assert.deepEqual(await complete(), { status: 200, remaining: '3' });
      assert.equal(w.model?.requests.length, 5);
    });

    it('an MCP tool call refused after counting (no such page, the search engine down, the model failing) gives its units back; in a batch, the headers tell of the call that spent', async () => {
      const w = await world([mcpRouter], { assistantPerOrgPerHour: 6, assistantPerKeyPerMonth: 6 }, [{ error: { status: 500 } }, { text: 'Compare the signature [1].' }]);
      const message = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
      const mcp = async (body: unknown, version = '2025-06-18') => {
        const res = await fetch(`${w.url}/mcp/skylark`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${w.org.assistantKey}`, 'mcp-protocol-version': version },
          body: JSON.stringify(body),
        });
        return { status: res.status, remaining: res.headers.get('ratelimit-remaining'), body: (await res.json()) as unknown };
      };
      /** Whether a single call's result is a tool error, and the `RateLimit-Remaining` of its answer. */
      const call = async (name: string, args: Record<string, unknown>) => {
        const { status, remaining, body } = await mcp(message(1, name, args));
        assert.equal(status, 200);
        return { isError: (body as { result: { isError?: boolean } }).result.isError === true, remaining };
      };

      assert.deepEqual(await call('search', { query: 'retries' }), { isError: false, remaining: '5' });
      for (let i = 0; i < 3; i++) assert.deepEqual(await call('get_page', { path: '/nope' }), { isError: true, remaining: null }, 'no such page');

      const searching = w.index.search;
      w.index.search = down;
      assert.deepEqual(await call('search', { query: 'retries' }), { isError: true, remaining: null }, 'the search engine down');
      assert.deepEqual(await call('ask', { question: QUESTION }), { isError: true, remaining: null }, 'refused before the model is asked');
      w.index.search = searching;
      assert.deepEqual(await call('ask', { question: QUESTION }), { isError: true, remaining: null }, 'the model failed');
      assert.deepEqual(await call('ask', { question: QUESTION }), { isError: false, remaining: '4' }, 'an answer spends the organisation\'s hour and the key\'s month');
      assert.equal(w.model?.requests.length, 2);

      // A batch (protocol 2025-03-26) whose search is answered and whose get_page is refused: one unit spent, and told.
      const batch = await mcp([message(1, 'search', { query: 'retries' }), message(2, 'get_page', { path: '/nope' })], '2025-03-26');
      assert.equal(batch.status, 200);
      assert.ok(batch.remaining === '3' || batch.remaining === '2', `the search's count, not none: ${batch.remaining}`);
      assert.deepEqual(await call('get_page', { path: '/quickstart' }), { isError: false, remaining: '2' });
    });
  });
}
