import assert from 'node:assert/strict';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createApp } from '../../../api/app.js';
import { consoleRouter } from '../../../api/console/index.js';
import { FEATURES } from '../../../api/features.js';
import type { ApiServices } from '../../../api/services.js';
import type { AnswerRecord } from '../../../core/analytics/index.js';
import { EmbeddedDocIndex } from '../../../core/retrieval/index.js';
import { buildConsole } from '../../../infra/build-console.js';
import { startFakeModel, type RecordedRequest, type Reply } from '../../fakes/chat-completions-server.js';
import { createDocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, tempDir, testServices, withDocIndex } from '../../support/services.js';
import { startWorker } from '../../support/temporal.js';
import { SITE } from '../assistant/site.js';
import { userMessage } from '../assistant/harness.js';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

export const UNCITED = 'The documentation does not say.';
export const GAP_PAGE = '# Rotating API keys\n\nCreate a new key, deploy it, then revoke the old one.\n';
/** An answer in Markdown, as the widget renders it: emphasis, a citation, a code block, and HTML a model was led to write. */
export const FORMATTED =
  '_No language model is configured_, so here is the **gist** [1].\n\n```bash\nnpm install -g quire-cli\n```\n\n' +
  '<script>document.title = "ran"</script> <img src=x onerror="document.title = \'ran\'">\n';

/**
 * The model provider, scripted: the assistant cites a passage unless the
 * question is about rotating keys (then it cites none: unanswered, a gap),
 * in Markdown and HTML when asked for it formatted; the agent writes one
 * page and says so.
 */
function script(req: RecordedRequest): Reply {
  if (req.body.tools?.length) {
    const wrote = req.body.messages.some((m) => m.role === 'tool');
    return wrote ? { text: 'Added a page on rotating API keys.' } : { toolCalls: [{ name: 'write_file', arguments: { path: 'api-keys.mdx', content: GAP_PAGE } }] };
  }
  const question = JSON.stringify(req.body.messages.at(-1)?.content ?? '');
  if (/formatted/i.test(question)) return { text: FORMATTED };
  return { text: /rotat/i.test(question) ? UNCITED : 'Install it with npm install -g quire-cli [1].' };
}

export interface ConsoleWorld {
  url: string;
  services: ApiServices;
  org: Awaited<ReturnType<typeof seedOrg>>;
  /** Asks the real assistant route (v2) and answers the thread and message ids for a rating. */
  ask(question: string): Promise<{ threadId: string; threadKey: string; messageId: string }>;
  rate(asked: { threadId: string; threadKey: string; messageId: string }, helpful: boolean): Promise<void>;
  search(query: string): Promise<void>;
  /** A reader's page view, as the widget's beacon reports it (from a page, with its user agent). */
  pageView(path: string, userAgent: string): Promise<void>;
}

/** An answer of acme-docs as analytics recorded it: a model's, from the widget, unanswered a minute ago unless `fields` say otherwise. */
export function answerRecord(fields: Pick<AnswerRecord, 'id'> & Partial<AnswerRecord>): AnswerRecord {
  return {
    orgId: 'acme',
    domainId: 'acme-docs',
    threadId: null,
    at: Date.now() - 60_000,
    question: 'How do I rotate my API key?',
    answer: 'The documentation does not say.',
    sources: [],
    mode: 'model',
    surface: 'assistant',
    caller: 'browser',
    fp: null,
    currentPath: null,
    resolution: 'unanswered',
    unansweredReason: 'no_citation',
    category: null,
    ...fields,
  };
}

/** The whole API over `services`, serving a console built for the test; resolves with its URL. */
/**
 * The API's services without a worker (their own task queue, named after `suite`), with
 * organisation `acme` and its `domains` (acme-docs unless named) over no docs: what the console's
 * browser suites that store their records themselves start from.
 */
export async function acmeServices(suite: string, domains: readonly string[] = ['acme-docs']): Promise<{ services: ApiServices; acme: Awaited<ReturnType<typeof seedOrg>> }> {
  const services = await testServices({ taskQueue: `${suite}-${randomUUID()}` });
  const acme = await seedOrg(services, 'acme');
  for (const id of domains) await services.tenants.putDomain({ id, orgId: 'acme', source: '/src', docsPath: '', baseUrl: 'https://acme.test', includeHidden: false });
  return { services, acme };
}

export async function serveWithConsole(services: ApiServices): Promise<string> {
  const consoleDir = await tempDir('quire-console-');
  await buildConsole(consoleDir, REPO_ROOT);
  const features = FEATURES.map((f) => (f === consoleRouter ? (s: ApiServices) => consoleRouter(s, { consoleDir }) : f));
  return (await serve(createApp(services, features))).url;
}

/**
 * The whole API as `npm start` serves it (every feature, the console built
 * into a temporary folder), with a local-forge project over a real git
 * repository, the Temporal dev server and a worker, and the fake model.
 */
export async function consoleWorld(): Promise<ConsoleWorld> {
  const consoleDir = await tempDir('quire-console-');
  await buildConsole(consoleDir, REPO_ROOT);
  const model = await startFakeModel(script);
  const repo = await createDocsRepo({ pages: 2 });
  const built = await testServices({
    taskQueue: `console-${randomUUID()}`,
    env: { QUIRE_MODEL: 'test-model', QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model' },
  });
  const org = await seedOrg(built);
  await built.tenants.putProject({ id: 'docs', orgId: org.orgId, repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
  await built.tenants.putDomain({ id: 'docs', orgId: org.orgId, source: '.', docsPath: '', baseUrl: 'https://docs.example.com/', includeHidden: false });
  const docIndex = new EmbeddedDocIndex(path.join(await tempDir('quire-index-'), 'index'));
  await docIndex.applyChanges('docs', { upserts: SITE, removals: [] });
  const services = withDocIndex(built, docIndex);
  await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
  const features = FEATURES.map((feature) => (feature === consoleRouter ? (s: ApiServices) => consoleRouter(s, { consoleDir }) : feature));
  const { url } = await serve(createApp(services, features), services.config.http);

  const post = (route: string, body: unknown) =>
    fetch(`${url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${org.assistantKey}` }, body: JSON.stringify(body) });

  return {
    url,
    services,
    org,
    async ask(question) {
      const res = await post('/discovery/v2/assistant/docs/message', { fp: 'fp-console-test', messages: [userMessage(question)] });
      assert.equal(res.status, 200, await res.clone().text());
      const stream = await res.text();
      const messageId = /msg_[0-9a-f-]{36}/.exec(stream)?.[0] ?? '';
      return { threadId: res.headers.get('x-thread-id') ?? '', threadKey: res.headers.get('x-thread-key') ?? '', messageId };
    },
    async rate(asked, helpful) {
      const res = await post('/discovery/v1/assistant/docs/feedback', { ...asked, helpful });
      assert.equal(res.status, 204, await res.clone().text());
    },
    async pageView(path, userAgent) {
      const res = await fetch(`${url}/discovery/v1/analytics/docs/page-view`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin: 'https://docs.example.com', 'user-agent': userAgent },
        body: JSON.stringify({ key: org.assistantKey, path }),
      });
      assert.equal(res.status, 204, await res.clone().text());
    },
    async search(query) {
      const res = await post('/discovery/v1/search/docs', { query });
      assert.equal(res.status, 200, await res.clone().text());
      await res.text();
    },
  };
}

export { seriousViolations } from './axe.js';
