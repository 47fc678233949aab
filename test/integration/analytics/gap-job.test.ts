/**
 * A coverage gap becomes an ordinary agent job: real API, the Temporal dev
 * server and a worker, a real git repository. No language model is
 * configured, so the job's turn fails with model_not_configured, which proves
 * the workflow ran; the gap then lists the job with its status and prLink.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createApp } from '../../../api/app.js';
import { AnalyticsRecorder, SqliteAnalyticsStore } from '../../../core/analytics/index.js';
import { agentJobWorkflowId } from '../../../core/contracts/index.js';
import type { JobView } from '../../../core/jobs/index.js';
import { createDocsRepo } from '../../support/docs-repo.js';
import { seedOrg, serve, tempDir, testServices } from '../../support/services.js';
import { startWorker } from '../../support/temporal.js';
import { answer } from '../../unit/analytics/store-contract.js';
import { call, pollJob } from '../agent-jobs/agent-api.js';

interface GapView {
  id: string;
  count: number;
  questions: string[];
  jobs: Array<{ jobId: string; projectId: string; status: string; prLink: string | null }>;
}

describe('a coverage gap fixed by the agent', function () {
  this.timeout(60_000);

  it('starts an agent job whose prompt carries the gap, and the gap lists the job', async () => {
    const repo = await createDocsRepo({ pages: 2 });
    const services = await testServices({ taskQueue: `gap-${randomUUID()}` });
    const recorder = new AnalyticsRecorder({
      store: new SqliteAnalyticsStore(path.join(await tempDir('quire-gap-'), 'analytics.db')),
      logger: services.logger,
      retentionDays: 30,
    });
    services.analytics = recorder;
    const { adminKey } = await seedOrg(services);
    await services.tenants.putProject({ id: 'docs', orgId: 'acme', repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    await services.tenants.putDomain({ id: 'docs', orgId: 'acme', source: '.', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false });
    await startWorker(services, { taskQueue: services.config.temporal.taskQueue });
    const base = (await serve(createApp(services))).url;

    const at = Date.now() - 60_000;
    const unanswered = { resolution: 'unanswered' as const, unansweredReason: 'no_passages' as const, sources: [] };
    recorder.record({ kind: 'answer', record: answer('q1', at, { question: 'How do I rotate my API key?', ...unanswered }) });
    recorder.record({ kind: 'answer', record: answer('q2', at + 1, { question: 'rotating api keys safely', ...unanswered }) });
    recorder.record({ kind: 'answer', record: answer('q3', at + 2, { question: 'Is there a dark theme?', ...unanswered }) });
    await recorder.tick();

    const listed = await call<{ gaps: GapView[] }>(`${base}/v1/analytics/docs/gaps`, 'GET', adminKey);
    assert.equal(listed.status, 200);
    const gap = listed.body.gaps[0];
    assert.ok(gap);
    assert.equal(gap.count, 2);

    const started = await call<{ gapId: string; projectId: string; jobId: string }>(`${base}/v1/analytics/docs/gaps/${gap.id}/job`, 'POST', adminKey, { projectId: 'docs' });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    assert.equal(started.body.gapId, gap.id);
    const description = await services.temporal.workflow.getHandle(agentJobWorkflowId(started.body.jobId)).describe();
    assert.match((await description.staticSummary()) ?? '', new RegExp(`^Fill coverage gap ${gap.id} of docs`));

    const failed = await pollJob(base, adminKey, 'docs', started.body.jobId, (j: JobView) => j.status !== 'active');
    assert.equal(failed.error?.code, 'model_not_configured');
    const after = await call<{ gaps: GapView[] }>(`${base}/v1/analytics/docs/gaps`, 'GET', adminKey);
    assert.deepEqual(after.body.gaps.find((g) => g.id === gap.id)?.jobs, [{ jobId: started.body.jobId, projectId: 'docs', status: 'failed', prLink: null }]);

    const unknown = await call(`${base}/v1/analytics/docs/gaps/gap_0000/job`, 'POST', adminKey, { projectId: 'docs' });
    assert.equal(unknown.status, 404);
  });
});
