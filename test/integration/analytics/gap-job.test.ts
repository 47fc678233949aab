/**
 * A coverage gap becomes an ordinary agent job: real API, the Temporal dev
 * server and a worker, a real git repository with the local forge. The first
 * case configures no language model, so the job is refused at the door with
 * 503 model_not_configured and the gap lists no job; the second scripts the
 * fake model (standing for an OpenAI-compatible provider), so the job writes a
 * page, opens a pull request, and the gap lists it completed with its prLink.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createApp } from '../../../api/app.js';
import { AnalyticsRecorder } from '../../../core/analytics/index.js';
import { agentJobWorkflowId } from '../../../core/contracts/index.js';
import type { JobView } from '../../../core/jobs/index.js';
import { startFakeModel } from '../../fakes/chat-completions-server.js';
import { createDocsRepo } from '../../support/docs-repo.js';
import { conforms } from '../../support/openapi-conforms.js';
import { seedOrg, serve, testServices } from '../../support/services.js';
import { startWorker } from '../../support/temporal.js';
import { answer } from '../../unit/analytics/answer-fixture.js';
import { call, pollJob } from '../agent-jobs/agent-api.js';

interface GapView {
  id: string;
  count: number;
  questions: string[];
  jobs: Array<{ jobId: string; projectId: string; status: string; prLink: string | null }>;
}

/**
 * Three unanswered questions a minute ago: two on rotating API keys (one gap), one on a dark theme
 * (another). Resolves with the first question's time; the others follow it by a millisecond each.
 * Answer ids begin with `prefix`: a gap's id, and the id of the job it starts, derive from them, and
 * the tests share one Temporal server, so each test names its own.
 */
async function twoGaps(recorder: AnalyticsRecorder, prefix: string): Promise<number> {
  const at = Date.now() - 60_000;
  const unanswered = { resolution: 'unanswered' as const, unansweredReason: 'no_passages' as const, sources: [] };
  const questions = ['How do I rotate my API key?', 'rotating api keys safely', 'Is there a dark theme?'];
  questions.forEach((question, i) => recorder.record({ kind: 'answer', record: answer(`${prefix}${i + 1}`, at + i, { question, ...unanswered }) }));
  await recorder.tick();
  return at;
}

describe('a coverage gap fixed by the agent', function () {
  this.timeout(60_000);

  /** A domain with a recorder, a local-forge project and a worker; `env` adds configuration (a model). */
  async function gapSetup(env: Record<string, string> = {}) {
    const repo = await createDocsRepo({ pages: 2 });
    const services = await testServices({ taskQueue: `gap-${randomUUID()}`, env });
    const recorder = new AnalyticsRecorder({
      store: services.analyticsStore,
      logger: services.logger,
      retentionDays: 30,
    });
    services.analytics = recorder;
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    await services.tenants.putDomain({ id: 'docs', orgId: 'acme', source: '.', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false });
    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    const base = (await serve(createApp(services))).url;
    return { repo, services, recorder, adminKey, base };
  }

  it('with no model configured, refuses the job with 503 model_not_configured and lists none', async () => {
    const { recorder, adminKey, base } = await gapSetup();

    await twoGaps(recorder, 'none');

    const listed = await call<{ gaps: GapView[] }>(`${base}/v1/analytics/docs/gaps`, 'GET', adminKey);
    assert.equal(listed.status, 200);
    const gap = listed.body.gaps[0];
    assert.ok(gap);
    assert.equal(gap.count, 2);

    const refused = await fetch(`${base}/v1/analytics/docs/gaps/${gap.id}/job`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ projectId: 'docs' }),
    });
    assert.equal(refused.status, 503);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(((await refused.json()) as { code: string }).code, 'model_not_configured');
    const after = await call<{ gaps: GapView[] }>(`${base}/v1/analytics/docs/gaps`, 'GET', adminKey);
    assert.deepEqual(after.body.gaps.find((g) => g.id === gap.id)?.jobs, []);

    const unknown = await call(`${base}/v1/analytics/docs/gaps/gap_0000/job`, 'POST', adminKey, { projectId: 'docs' });
    assert.equal(unknown.status, 404);
  });

  it('starts one job for a double click, a retry with the same Idempotency-Key, or a click while the gap’s job is active', async () => {
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The model holds every job's first turn: the jobs stay active until the test lets them go.
    const model = await startFakeModel(async () => {
      await held;
      return { text: 'Nothing to change.' };
    });
    const { recorder, adminKey, base } = await gapSetup({ QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' });
    try {
      const at = await twoGaps(recorder, 'click');
      const [keys, dark] = (await call<{ gaps: GapView[] }>(`${base}/v1/analytics/docs/gaps`, 'GET', adminKey)).body.gaps;
      assert.ok(keys && dark);
      const start = (gapId: string, headers: Record<string, string> = {}) =>
        fetch(`${base}/v1/analytics/docs/gaps/${gapId}/job`, {
          method: 'POST',
          headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ projectId: 'docs' }),
        });
      const jobOf = async (res: Response) => [res.status, ((await res.json()) as { jobId: string }).jobId] as const;

      // A double click: both requests answer one job.
      const clicks = await Promise.all([start(keys.id), start(keys.id)].map(async (res) => jobOf(await res)));
      const jobId = clicks[0]![1];
      assert.deepEqual(clicks.map(([, id]) => id), [jobId, jobId]);
      assert.ok(clicks.every(([status]) => status === 200 || status === 201), JSON.stringify(clicks));
      const later = await start(keys.id);
      await conforms('/v1/analytics/{domain}/gaps/{gapId}/job', 'post', later.clone());
      assert.deepEqual(await jobOf(later), [200, jobId], 'the gap’s active job, not a new one');

      // With a key: the retry answers the job the first attempt started; the key is refused on another gap.
      const key = { 'Idempotency-Key': 'gap-retry-0001' };
      const first = await jobOf(await start(dark.id, key));
      assert.equal(first[0], 201);
      assert.deepEqual(await jobOf(await start(dark.id, key)), first);
      const reused = await start(keys.id, key);
      assert.equal(reused.status, 422);
      assert.equal(((await reused.json()) as { code: string }).code, 'idempotency_key_reused');

      const listed = (await call<{ gaps: GapView[] }>(`${base}/v1/analytics/docs/gaps`, 'GET', adminKey)).body.gaps;
      assert.deepEqual(listed.map((g) => g.jobs.map((j) => j.jobId)), [[jobId], [first[1]]]);
      // A period without the gap's earliest question (its id then) still shows its job, and a click there answers it.
      const since = new Date(at + 1).toISOString();
      const shorter = (await call<{ gaps: GapView[] }>(`${base}/v1/analytics/docs/gaps?dateFrom=${since}`, 'GET', adminKey)).body.gaps;
      const keysLater = shorter.find((g) => g.questions.includes('rotating api keys safely'));
      assert.ok(keysLater && keysLater.id !== keys.id);
      assert.deepEqual(keysLater.jobs.map((j) => j.jobId), [jobId]);
      const clickLater = await fetch(`${base}/v1/analytics/docs/gaps/${keysLater.id}/job`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ projectId: 'docs', dateFrom: since }),
      });
      assert.deepEqual(await jobOf(clickLater), [200, jobId], 'the gap’s active job, not a new one');
      const projectJobs = await call<{ jobs: unknown[] }>(`${base}/v2/agent/docs/jobs?limit=100`, 'GET', adminKey);
      assert.equal(projectJobs.body.jobs.length, 2);
    } finally {
      release();
    }
  });

  it('completes the gap\'s job with a pull request: the gap shows the job completed with the same prLink', async () => {
    const page = '# Rotating API keys\n\nCreate a new key, deploy it, then revoke the old one.\n';
    const model = await startFakeModel([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'api-keys.mdx', content: page } }] },
      { text: 'Added a page on rotating API keys.' },
    ]);
    const { repo, services, recorder, adminKey, base } = await gapSetup({ QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' });

    // Unanswered, yet retrieval came near these pages: they are the gap's nearest pages.
    const near = [{ title: 'Authentication', url: 'https://docs.example.com/authentication#keys', path: '/authentication' }];
    const at = Date.now() - 60_000;
    const unanswered = { resolution: 'unanswered' as const, unansweredReason: 'no_passages' as const, sources: near };
    recorder.record({ kind: 'answer', record: answer('q1', at, { question: 'How do I rotate my API key?', ...unanswered }) });
    recorder.record({ kind: 'answer', record: answer('q2', at + 1, { question: 'rotating api keys safely', ...unanswered }) });
    await recorder.tick();

    const listed = await call<{ gaps: GapView[] }>(`${base}/v1/analytics/docs/gaps`, 'GET', adminKey);
    const gap = listed.body.gaps[0];
    assert.ok(gap);
    const started = await call<{ gapId: string; jobId: string }>(`${base}/v1/analytics/docs/gaps/${gap.id}/job`, 'POST', adminKey, { projectId: 'docs' });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    assert.equal(started.body.gapId, gap.id);
    const { jobId } = started.body;
    const description = await services.temporal.workflow.getHandle(agentJobWorkflowId(jobId)).describe();
    assert.match((await description.staticSummary()) ?? '', new RegExp(`^Fill coverage gap ${gap.id} of docs`));

    const done = await pollJob(base, adminKey, 'docs', jobId, (j: JobView) => j.status !== 'active');
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.ok(done.prLink, 'the job opened a pull request');
    assert.equal(await repo.readFile(done.branch, path.posix.join(repo.docsPath, 'api-keys.mdx')), page.trimEnd(), 'the pull request\'s branch holds the page (readFile trims like git output)');

    const after = await call<{ gaps: GapView[] }>(`${base}/v1/analytics/docs/gaps`, 'GET', adminKey);
    assert.deepEqual(after.body.gaps.find((g) => g.id === gap.id)?.jobs, [{ jobId, projectId: 'docs', status: 'completed', prLink: done.prLink }]);

    // More readers ask: the gap grows and its most telling word is now "staging", but it keeps its id and its job.
    recorder.record({ kind: 'answer', record: answer('q3', at + 2, { question: 'rotate the API key in staging', ...unanswered }) });
    recorder.record({ kind: 'answer', record: answer('q4', at + 3, { question: 'rotating API keys for staging', ...unanswered }) });
    await recorder.tick();
    const grown = (await call<{ gaps: Array<GapView & { topic: string[] }> }>(`${base}/v1/analytics/docs/gaps`, 'GET', adminKey)).body.gaps;
    assert.deepEqual(grown.map((g) => [g.id, g.count, g.topic[0]]), [[gap.id, 4, 'staging']]);
    assert.deepEqual(grown[0]?.jobs.map((j) => j.jobId), [jobId]);

    const prompt = String(model.requests[0]?.body.messages.find((m) => m.role === 'user')?.content);
    for (const question of ['How do I rotate my API key?', 'rotating api keys safely']) assert.ok(prompt.includes(question), `the prompt carries "${question}"`);
    assert.ok(prompt.includes('Authentication (/authentication)'), 'the prompt carries the nearest page');
  });
});
