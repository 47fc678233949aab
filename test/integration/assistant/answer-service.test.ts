import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { mcpRouter } from '../../../api/mcp/index.js';
import { openAiCompatRouter } from '../../../api/openai-compat/index.js';
import { AnalyticsRecorder } from '../../../core/analytics/index.js';
import { createLogger } from '../../../core/logger.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { readV1, readV2 } from './clients.js';
import { assistantWorld, docsPage, SITE, userMessageV1, type AssistantWorld } from './harness.js';

const BASE = 'https://docs.example.com';
/** Eight pages that all answer a deployment question, so retrieval has more pages than an answer cites. */
const DEPLOY_PAGES = Array.from({ length: 8 }, (_, i) =>
  docsPage(`/deploy/target-${i + 1}`, `Deploy to target ${i + 1}`, [
    { heading: 'Deploy', anchor: 'deploy', text: `Deploy the site to target ${i + 1} with quire deploy. Each deploy rebuilds the pages.` },
    { heading: 'Rollback', anchor: 'rollback', text: `A deploy to target ${i + 1} can be rolled back with quire rollback.` },
  ]),
);

/** One page in two languages, as a translated site has it: the page and its chunks carry the language. */
const UNDEPLOY_PAGES = (['en', 'fr'] as const).map((language) => {
  const page = docsPage(`/${language}/undeploy`, language === 'en' ? 'Undeploy' : 'Retirer un déploiement', [
    { heading: 'Undeploy', anchor: 'undeploy', text: language === 'en' ? 'Take a site offline with quire undeploy.' : 'Mettez un site hors ligne avec quire undeploy.' },
  ]);
  return { ...page, language, chunks: page.chunks.map((c) => ({ ...c, language })) };
});

/** One page in two versions: the current one and its legacy twin, each chunk carrying its version. */
const ROLLBACK_PAGES = (['v2', 'v1'] as const).map((version) => {
  const page = docsPage(`/${version}/rollback`, `Roll back (${version})`, [
    { heading: 'Roll back', anchor: 'roll-back', text: version === 'v2' ? 'Roll back a release with quire rollback and its release id.' : 'Roll back a release with quire revert --to and its tag.' },
  ]);
  return { ...page, version, chunks: page.chunks.map((c) => ({ ...c, version })) };
});

/** Every Markdown link target in a text. */
const linksOf = (text: string) => [...text.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => m[1]!);

describe('one answer service behind every door', () => {
  let world: AssistantWorld;
  let recorder: AnalyticsRecorder;

  before(async () => {
    // Not started, over the platform's analytics store: the test flushes the queue and the completion writer itself, so what it reads is everything recorded.
    world = await assistantWorld({
      // The fake provider cites the first two pages it was given.
      script: () => ({ text: 'Run quire deploy [1]. Roll back with quire rollback [2].' }),
      patch: (s) => ({ analytics: (recorder = new AnalyticsRecorder({ store: s.analyticsStore, logger: createLogger('silent', 'test'), retentionDays: 30 })) }),
      features: [mcpRouter, openAiCompatRouter],
    });
    await world.docIndex.applyChanges(world.domainId, { upserts: [...DEPLOY_PAGES, ...UNDEPLOY_PAGES, ...ROLLBACK_PAGES], removals: [] });
  });
  after(() => world.close());

  const admin = async (route: string) => {
    const res = await fetch(`${world.url}${route}`, { headers: { authorization: `Bearer ${world.org.adminKey}` } });
    assert.equal(res.status, 200, await res.clone().text());
    return res.json() as Promise<{ exchanges: Array<{ messageId: string; answer: string; outcome: string }> }>;
  };

  /** The answers counted with `outcome`, and the first tokens timed, so far. */
  const metered = async () => {
    const { registry } = world.services.metrics;
    const answers = (await registry.getSingleMetric('quire_assistant_answers_total')!.get()).values;
    const firstTokens = (await registry.getSingleMetric('quire_assistant_first_token_seconds')!.get()).values;
    const count = (outcome: string) => answers.filter((v) => v.labels.outcome === outcome).reduce((n, v) => n + v.value, 0);
    return { answered: count('answered'), failed: count('failed'), aborted: count('aborted'), firstTokens: firstTokens.find((v) => (v as { metricName?: string }).metricName === 'quire_assistant_first_token_seconds_count')?.value ?? 0 };
  };

  it('records each answer once on v1, v2, MCP ask and the OpenAI-compatible endpoint: one analytics record, one thread exchange with the same text', async () => {
    const question = 'How do I install the CLI?';
    const before = await metered();
    const v2 = await readV2('ai5', { url: `${world.url}/discovery/v2/assistant/docs/message`, key: world.org.assistantKey, body: { fp: 'fp-2' }, text: question });
    const v1 = await readV1(await world.post('v1', { fp: 'fp-1', messages: [userMessageV1(question)] }));

    const transport = new StreamableHTTPClientTransport(new URL(`${world.url}/mcp/docs`), { requestInit: { headers: { authorization: `Bearer ${world.org.assistantKey}` } } });
    const mcp = new Client({ name: 'quire-test', version: '1.0.0' });
    await mcp.connect(transport);
    onSuiteEnd(() => mcp.close());
    const asked = (await mcp.callTool({ name: 'ask', arguments: { question } })).structuredContent as { answer: string };

    const openai = new OpenAI({ baseURL: `${world.url}/discovery/v1/openai/docs`, apiKey: world.org.assistantKey, maxRetries: 0 });
    const completion = await openai.chat.completions.create({ model: 'quire', messages: [{ role: 'user', content: question }] });

    // The answer service meters every door once: four answered, four first tokens timed.
    const after = await metered();
    assert.deepEqual(
      { answered: after.answered - before.answered, failed: after.failed - before.failed, aborted: after.aborted - before.aborted, firstTokens: after.firstTokens - before.firstTokens },
      { answered: 4, failed: 0, aborted: 0, firstTokens: 4 },
    );

    await world.services.completions.flush();
    const { items } = await recorder.store.listAnswers('docs', { from: 0, to: Date.now() + 60_000, limit: 50 });
    assert.deepEqual(items.map((r) => r.surface).sort(), ['assistant', 'assistant', 'mcp', 'openai']);
    assert.equal(new Set(items.map((r) => r.id)).size, 4);

    const byThread = (threadId: string | undefined) => items.find((r) => r.threadId === threadId);
    for (const reading of [v1, v2]) {
      const record = byThread(reading.threadId);
      assert.ok(record, `an analytics record for thread ${reading.threadId}`);
      assert.equal(record.answer, reading.text, 'analytics keeps the answer as the reader got it');
      const { exchanges } = await admin(`/v1/admin/threads/${reading.threadId}`);
      assert.deepEqual(exchanges.map((x) => [x.messageId, x.answer, x.outcome]), [[record.id, reading.text, 'complete']], 'one exchange, from the same completion record');
    }
    const [mcpRecord, openaiRecord] = [items.find((r) => r.surface === 'mcp'), items.find((r) => r.surface === 'openai')];
    assert.equal(mcpRecord?.threadId, null);
    assert.equal(mcpRecord.answer.trim(), asked.answer);
    assert.equal(openaiRecord?.threadId, null);
    assert.equal(openaiRecord.answer, completion.choices[0]?.message.content);
    // Every door links its markers the same way.
    assert.match(asked.answer, /\[\[1\]\]\(https:\/\/docs\.example\.com\/guides\/install#install-the-cli\)/);
    assert.equal(linksOf(v2.text)[0], linksOf(completion.choices[0]?.message.content ?? '')[0]);
  });

  it('cites one source per page, at most 5, each page once in the search tool result, and every link in the text opens a cited page', async () => {
    const reading = await readV2('ai6', {
      url: `${world.url}/discovery/v2/assistant/docs/message`,
      key: world.org.assistantKey,
      body: { fp: 'fp-3' },
      text: 'How do I deploy and roll back a deploy?',
    });
    assert.deepEqual(reading.errors, []);
    const paths = reading.sources.map((s) => new URL(s.url).pathname);
    assert.ok(paths.length > 1 && paths.length <= 5, `${paths.length} sources`);
    assert.equal(new Set(paths).size, paths.length, 'one source per page');
    assert.deepEqual(reading.sources.map((s) => s.id), paths.map((_, i) => `src_${i + 1}`));

    const hits = reading.search?.hits ?? [];
    assert.deepEqual(hits.map((h) => h.url), reading.sources.map((s) => s.url), 'the search result lists each cited page once, in citation order');
    for (const hit of hits) {
      assert.ok(hit.url.startsWith(`${BASE}${hit.path}#`), hit.url);
      assert.match(hit.metadata.title, /^Deploy to target \d$/);
    }

    const known = new Set([...SITE, ...DEPLOY_PAGES].map((p) => p.path));
    const links = linksOf(reading.text.replace(/```suggestions[\s\S]*$/, ''));
    assert.deepEqual(links, [reading.sources[0]?.url, reading.sources[1]?.url], '[1] and [2] link to sources 1 and 2');
    for (const link of links) assert.ok(known.has(new URL(link).pathname), `${link} is a page of the site`);
  });

  it('asks for fewer pages and gets fewer sources: retrievalPageSize bounds them', async () => {
    const reading = await readV2('ai7', {
      url: `${world.url}/discovery/v2/assistant/docs/message`,
      key: world.org.assistantKey,
      body: { fp: 'fp-4', retrievalPageSize: 2 },
      text: 'How do I deploy?',
    });
    assert.equal(reading.sources.length, 2);
    assert.equal(reading.search?.hits.length, 2);
  });
  it("answers a reader on a page of one language from that language's pages, else from the pages in the question's language, unless the request names a language", async () => {
    const sourcesFor = async (fp: string, extra: Record<string, unknown>, text = 'How do I undeploy?') => {
      const reading = await readV2('ai5', { url: `${world.url}/discovery/v2/assistant/docs/message`, key: world.org.assistantKey, body: { fp, ...extra }, text });
      return reading.sources.map((s) => new URL(s.url).pathname);
    };
    const onFrench = await sourcesFor('fp-lang-1', { currentPath: '/fr/undeploy' });
    assert.ok(onFrench.includes('/fr/undeploy'), onFrench.join());
    assert.ok(!onFrench.includes('/en/undeploy'), `no English page for a reader on a French one: ${onFrench.join()}`);
    const onEnglish = await sourcesFor('fp-lang-2', { currentPath: '/en/undeploy' });
    assert.ok(onEnglish.includes('/en/undeploy') && !onEnglish.includes('/fr/undeploy'), onEnglish.join());
    // From a page of no language (or none), the pages found are those of the language the question is written in...
    const nowhere = await sourcesFor('fp-lang-3', { currentPath: '/deploy/target-1' });
    assert.ok(nowhere.includes('/en/undeploy') && !nowhere.includes('/fr/undeploy'), nowhere.join());
    const inFrench = await sourcesFor('fp-lang-5', {}, 'Comment retirer un déploiement avec quire undeploy ?');
    assert.ok(inFrench.includes('/fr/undeploy') && !inFrench.includes('/en/undeploy'), inFrench.join());
    // ...and a question that does not tell (no function word of either) is answered from both.
    const untold = await sourcesFor('fp-lang-6', {}, 'quire undeploy');
    assert.ok(untold.includes('/en/undeploy') && untold.includes('/fr/undeploy'), untold.join());
    // A language the request names wins over the page's.
    const named = await sourcesFor('fp-lang-4', { currentPath: '/en/undeploy', filter: { language: 'fr' } });
    assert.ok(named.includes('/fr/undeploy') && !named.includes('/en/undeploy'), named.join());
  });

  it('answers a question that names no version from the version of the best page found, and one that names a version from it', async () => {
    const sourcesFor = async (fp: string, text: string, extra: Record<string, unknown> = {}) => {
      const reading = await readV2('ai5', { url: `${world.url}/discovery/v2/assistant/docs/message`, key: world.org.assistantKey, body: { fp, ...extra }, text });
      return reading.sources.map((s) => new URL(s.url).pathname);
    };
    const current = await sourcesFor('fp-ver-1', 'How do I roll back a release with its release id?');
    assert.ok(current.includes('/v2/rollback') && !current.includes('/v1/rollback'), current.join());
    const legacy = await sourcesFor('fp-ver-2', 'How do I revert a release to its tag?');
    assert.ok(legacy.includes('/v1/rollback') && !legacy.includes('/v2/rollback'), legacy.join());
    const named = await sourcesFor('fp-ver-3', 'How do I roll back a release with its release id?', { filter: { version: 'v1' } });
    assert.deepEqual(named.filter((p) => p.includes('rollback')), ['/v1/rollback']);
  });
});
