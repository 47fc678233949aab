import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RecordedRequest, Reply } from '../../fakes/chat-completions-server.js';
import { readV1, readV2, V2_CLIENTS, type ClientReading } from './clients.js';
import { assistantWorld, userMessageV1, type AssistantWorld } from './harness.js';

/**
 * The model's part in retrieval, against the fake provider: one bounded query
 * rewrite before retrieval (a non-streamed completion) and up to three searches
 * of its own (tool calls of the streamed answer), read by the real AI SDK clients.
 */

const isRewrite = (req: RecordedRequest) => req.body.stream !== true;
const toolResults = (req: RecordedRequest) => req.body.messages.filter((m) => m.role === 'tool');

/** The model's replies: `rewrite` for the rewrite request, `answer` for each streamed round. */
type Model = { rewrite: (req: RecordedRequest) => Reply; answer: (req: RecordedRequest) => Reply };

/** Every page appears once among all the search results of one answer. */
function assertPagesOnce(reading: ClientReading) {
  const paths = reading.searches.flatMap((s) => s.hits.map((h) => h.path));
  assert.equal(new Set(paths).size, paths.length, `a page listed twice: ${paths.join(', ')}`);
  for (const hit of reading.searches.flatMap((s) => s.hits)) {
    assert.match(hit.url, /^https:\/\/docs\.example\.com\//);
    assert.ok(hit.metadata.title, 'metadata.title');
  }
}

describe('assistant: query rewrite and the model’s own searches', () => {
  let world: AssistantWorld;
  let model: Model;

  before(async () => {
    world = await assistantWorld({
      script: (req) => (isRewrite(req) ? model.rewrite(req) : model.answer(req)),
      env: {
        QUIRE_ASSISTANT_QUERY_REWRITE: 'true',
        QUIRE_ASSISTANT_REWRITE_TIMEOUT_MS: '400',
        QUIRE_ASSISTANT_MAX_SEARCHES: '3',
      },
    });
  });
  after(() => world.close());
  beforeEach(() => {
    world.model!.requests.length = 0;
    world.model!.aborted = 0;
  });

  const v2Url = () => `${world.url}/discovery/v2/assistant/${world.domainId}/message`;
  const ask = (client: (typeof V2_CLIENTS)[number] | 'v1', text: string, earlier: Array<{ role: string; text: string }> = []) => {
    if (client === 'v1') {
      const messages = [...earlier.map((t, i) => ({ ...userMessageV1(t.text, `e${i}`), role: t.role })), userMessageV1(text)];
      return world.post('v1', { fp: 'reader-1', messages }).then(readV1);
    }
    return readV2(client, { url: v2Url(), key: world.org.assistantKey, body: { fp: 'reader-1' }, text });
  };

  it('retrieves with the rewritten query, built from the question and the turns before it', async () => {
    model = { rewrite: () => ({ text: 'install the CLI with npm' }), answer: () => ({ text: 'Use npm [1].' }) };
    const earlier = [
      { role: 'user', text: 'What does the Quire CLI do?' },
      { role: 'assistant', text: 'It indexes your docs.' },
    ];
    const reading = await ask('v1', 'How do I get it onto my laptop?', earlier);
    assert.deepEqual(reading.errors, []);
    assert.equal(reading.queryRewrite, 'rewritten');
    assert.equal(reading.search?.query, 'install the CLI with npm');
    assert.equal(reading.search?.hits[0]?.path, '/guides/install');
    const rewrite = world.model!.requests.find(isRewrite)!;
    const asked = JSON.stringify(rewrite.body.messages);
    assert.match(asked, /How do I get it onto my laptop\?/);
    assert.match(asked, /What does the Quire CLI do\?/, 'the earlier turn reaches the rewrite');
    assert.equal(rewrite.body.tools, undefined, 'the rewrite is offered no tools');
    // The answer itself still reads the reader's own question.
    const answer = world.model!.requests.find((r) => !isRewrite(r))!;
    assert.equal(answer.body.messages.at(-1)?.content, 'How do I get it onto my laptop?');
  });

  it('a rewrite that does not answer within its budget is abandoned: the question is searched, and the metadata says so', async () => {
    model = { rewrite: () => ({ hang: true }), answer: () => ({ text: 'Use npm [1].' }) };
    for (const client of ['v1', 'ai5'] as const) {
      const reading = await ask(client, 'How do I install the CLI?');
      assert.deepEqual(reading.errors, [], client);
      assert.equal(reading.queryRewrite, 'timeout', client);
      assert.equal(reading.search?.query, 'How do I install the CLI?', client);
      assert.ok(reading.text.startsWith('Use npm [[1]]('), reading.text);
    }
    // The hung rewrites were given up by Quire, not answered late.
    assert.equal(world.model!.aborted, 2);
  });

  it('a reader who leaves while the rewrite runs stops it, and the model is never asked for the answer (kept as abandoned)', async () => {
    model = { rewrite: () => ({ hang: true }), answer: () => ({ text: 'Use npm [1].' }) };
    const question = 'How do I install the CLI before I leave?';
    const controller = new AbortController();
    const asking = world
      .post('v2', { fp: 'reader-1', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: question }] }] }, { signal: controller.signal })
      .catch(() => undefined);
    while (!world.model!.requests.some(isRewrite)) await sleep(5);
    controller.abort();
    await asking;
    // Once the answer service has recorded the question, the model has been asked all it ever will be.
    let record;
    while (!record) {
      await world.services.completions.flush();
      const { items } = await world.services.analyticsStore.listAnswers(world.domainId, { from: 0, to: Date.now() + 60_000, limit: 50 });
      record = items.find((r) => r.question === question);
      if (!record) await sleep(10);
    }
    assert.equal(world.model!.requests.filter((r) => !isRewrite(r)).length, 0, 'no answer was asked of the model');
    assert.equal(world.model!.aborted, 1, 'the rewrite was stopped, not left to its budget and answered');
    assert.equal(record.answer, '');
    const transcript = await world.services.threads.load(record.orgId, record.threadId!);
    assert.deepEqual(transcript?.exchanges.map((x) => [x.question, x.outcome]), [[question, 'aborted']]);
  });

  it('a failing rewrite falls back to the question and says so', async () => {
    model = { rewrite: () => ({ error: { status: 500, message: 'provider down' } }), answer: () => ({ text: 'Use npm [1].' }) };
    const reading = await ask('ai6', 'How do I install the CLI?');
    assert.deepEqual(reading.errors, []);
    assert.equal(reading.queryRewrite, 'failed');
    assert.equal(reading.search?.query, 'How do I install the CLI?');
    assert.equal(reading.search?.hits[0]?.path, '/guides/install');
  });

  /** A model that searches for webhooks once, then answers citing the new page. */
  const searchingModel = (): Model => ({
    rewrite: () => ({ text: 'install the CLI' }),
    answer: (req) =>
      toolResults(req).length === 0
        ? { toolCalls: [{ name: 'search', arguments: { query: 'webhook signing secret' }, id: 'call_hooks' }] }
        : { text: 'Install with npm [1]; webhooks are signed with HMAC [2].' },
  });

  for (const client of ['v1', ...V2_CLIENTS] as const) {
    it(`${client}: the model's search is a second \`search\` tool part, its page a new numbered source`, async () => {
      model = searchingModel();
      const reading = await ask(client, 'How do I install the CLI, and how are webhooks secured?');
      assert.deepEqual(reading.errors, []);
      assert.deepEqual(reading.searches.map((s) => s.query), ['install the CLI', 'webhook signing secret']);
      assert.deepEqual(reading.searches[1]?.hits.map((h) => h.path), ['/guides/webhooks']);
      assert.equal(reading.searches[1]?.hits[0]?.url, 'https://docs.example.com/guides/webhooks#signing-secrets');
      assertPagesOnce(reading);
      assert.match(reading.text, /HMAC \[\[2\]\]\(https:\/\/docs\.example\.com\/guides\/webhooks#signing-secrets\)/);
      assert.deepEqual(reading.sources.map((s) => s.id), ['src_1', 'src_2']);
      // The model read the new page under the number it then cited.
      const second = world.model!.requests.filter((r) => !isRewrite(r))[1]!;
      assert.match(String(toolResults(second)[0]?.content), /\[2\] Webhooks \(https:\/\/docs\.example\.com\/guides\/webhooks#signing-secrets\)/);
      assert.equal(second.body.tools?.[0]?.function.name, 'search');
    });
  }

  it('a page the answer already has is not listed again; the model is told its number', async () => {
    model = {
      rewrite: () => ({ text: 'install the CLI' }),
      answer: (req) =>
        toolResults(req).length === 0
          ? { toolCalls: [{ name: 'search', arguments: { query: 'Quire CLI npm install' } }] }
          : { text: 'Use npm [1].' },
    };
    const reading = await ask('ai7', 'How do I install the CLI?');
    assert.equal(reading.searches.length, 2);
    assert.ok(!reading.searches[1]!.hits.some((h) => h.path === '/guides/install'));
    assertPagesOnce(reading);
    const second = world.model!.requests.filter((r) => !isRewrite(r))[1]!;
    assert.match(String(toolResults(second)[0]?.content), /already have also matched: \[1\]/);
  });

  it('a fourth search is refused: three run and stream, the model is told the limit and answers', async () => {
    const queries = ['windows installer', 'webhook signing', 'node version', 'billing invoices'];
    model = {
      rewrite: () => ({ text: 'install the CLI' }),
      answer: (req) => {
        const done = toolResults(req).length;
        return done < queries.length ? { toolCalls: [{ name: 'search', arguments: { query: queries[done]! } }] } : { text: 'Use npm [1].' };
      },
    };
    const reading = await ask('ai5', 'How do I install the CLI?');
    assert.deepEqual(reading.errors, []);
    assert.deepEqual(reading.searches.map((s) => s.query), ['install the CLI', ...queries.slice(0, 3)]);
    assertPagesOnce(reading);
    const last = world.model!.requests.filter((r) => !isRewrite(r)).at(-1)!;
    const results = toolResults(last).map((m) => String(m.content));
    assert.equal(results.length, 4);
    assert.match(results[3]!, /Refused: at most 3 searches per answer/);
    assert.ok(reading.text.startsWith('Use npm [[1]]('), reading.text);
  });

  it('a model that keeps calling tools after the refusal round has its answer end with an error part', async () => {
    model = { rewrite: () => ({ text: 'install the CLI' }), answer: () => ({ toolCalls: [{ name: 'search', arguments: { query: 'again' } }] }) };
    const reading = await ask('v1', 'How do I install the CLI?');
    assert.equal(reading.searches.length, 4, 'the retrieval and three searches');
    assert.equal(reading.errors.length, 1);
    assert.match(reading.errors[0]!, /kept searching/);
    // Four rounds of tool calls answered (three searches, one refusal), the fifth ended it.
    assert.equal(world.model!.requests.filter((r) => !isRewrite(r)).length, 5);
  });
});

describe('assistant: a model-driven search past its budget', () => {
  let world: AssistantWorld;

  before(async () => {
    world = await assistantWorld({
      script: (req) =>
        isRewrite(req)
          ? { text: 'install the CLI' }
          : toolResults(req).length === 0
            ? { toolCalls: [{ name: 'search', arguments: { query: 'webhook signing secret' } }] }
            : { text: 'Use npm [1].' },
      env: { QUIRE_ASSISTANT_QUERY_REWRITE: 'true', QUIRE_ASSISTANT_MAX_SEARCHES: '3', QUIRE_ASSISTANT_SEARCH_TIMEOUT_MS: '300' },
      // The query embedder would wait ten seconds: the search's own budget ends it first.
      queryEmbeddingTimeoutMs: 10_000,
    });
  });
  after(() => world.close());

  it('is given up at its budget: streamed without hits, the model told so, the answer completes', async () => {
    const embeddingRequests: string[][] = [];
    world.model!.onEmbeddingRequest = (n, inputs) => {
      embeddingRequests.push(inputs);
      // The retrieval's query embeds at once; the model's search finds the embedder stalled.
      world.model!.embeddingDelayMsPerInput = n === 0 ? 0 : 60_000;
    };
    const reading = await readV2('ai5', { url: `${world.url}/discovery/v2/assistant/${world.domainId}/message`, key: world.org.assistantKey, body: { fp: 'r' }, text: 'How do I install the CLI?' });
    assert.deepEqual(reading.errors, []);
    assert.deepEqual(reading.searches.map((s) => s.query), ['install the CLI', 'webhook signing secret']);
    assert.equal(reading.search?.hits[0]?.metadata.retrieval, 'hybrid', 'the retrieval had its vector');
    assert.deepEqual(reading.searches[1]?.hits, []);
    assert.deepEqual(embeddingRequests, [['install the CLI'], ['webhook signing secret']]);
    const last = world.model!.requests.filter((r) => !isRewrite(r)).at(-1)!;
    assert.match(String(toolResults(last)[0]?.content), /did not finish within 300 ms/);
    assert.ok(reading.text.startsWith('Use npm [[1]]('), reading.text);
  });
});
