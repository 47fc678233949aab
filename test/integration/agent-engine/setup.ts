import { MockActivityEnvironment } from '@temporalio/testing';
import { createAgentActivities, type AgentTurnInput } from '../../../activities/agent/index.js';
import type { ActivityServices } from '../../../activities/index.js';
import type { ApiServices } from '../../../api/services.js';
import { messageRef } from '../../../core/contracts/index.js';
import { type JobStore } from '../../../core/jobs/index.js';
import { startFakeModel, type FakeModelServer, type Script } from '../../fakes/chat-completions-server.js';
import { createDocsRepo, type DocsRepo, type DocsRepoOptions } from '../../support/docs-repo.js';
import { testServices } from '../../support/services.js';

export interface EngineFixture {
  services: ApiServices & ActivityServices & { jobs: JobStore };
  repo: DocsRepo;
  model: FakeModelServer;
  activities: ReturnType<typeof createAgentActivities>;
  /** Runs an activity function inside the SDK's real activity context (heartbeats, cancellation). */
  inActivity<R>(fn: () => Promise<R>): Promise<R>;
  /** A turn's input, its prompts stored in the job store as the API stores them. */
  turnInput(jobId: string, prompts: string[], turn?: number): Promise<AgentTurnInput>;
  /** Stores `Prompt of turn N` as message `mN` of the job, for turns 1 to `turns` (what pull-request inputs name). */
  storeTurnPrompts(jobId: string, turns: number): Promise<void>;
}

/** A project over a real bare repository, a scripted model and the agent activities. */
export async function engineFixture(
  opts: { repo?: DocsRepoOptions; env?: Record<string, string>; script?: Script; projectId?: string } = {},
): Promise<EngineFixture> {
  const model = await startFakeModel(opts.script ?? []);
  const repo = await createDocsRepo({ pages: 3, withNav: true, ...opts.repo });
  const base = await testServices({
    withTemporal: false,
    env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model', ...opts.env },
  });
  const services = base;
  await services.tenants.addOrg('acme');
  await services.tenants.putProject({
    id: opts.projectId ?? 'docs',
    orgId: 'acme',
    repository: repo.bareDir,
    branch: repo.branch,
    docsPath: repo.docsPath,
    forge: 'local',
    allowedModels: ['test-model'],
  });
  return {
    services,
    repo,
    model,
    activities: createAgentActivities(services),
    inActivity: (fn) => new MockActivityEnvironment().run(fn),
    turnInput: async (jobId, prompts, turn = 1) => {
      const messages = prompts.map((prompt, i) => ({ id: `m${turn}-${i}`, prompt }));
      for (const m of messages) await services.jobs.putMessage('docs', jobId, m);
      return { jobId, projectId: 'docs', model: 'test-model', branch: `quire/${jobId}`, turn, messages: messages.map(messageRef) };
    },
    storeTurnPrompts: async (jobId, turns) => {
      for (let turn = 1; turn <= turns; turn++) await services.jobs.putMessage('docs', jobId, { id: `m${turn}`, prompt: `Prompt of turn ${turn}` });
    },
  };
}

/** A model reply that writes a page with a link to a page that does not exist (a validation error). */
export const writeDeadLinkPage = { toolCalls: [{ name: 'write_file', arguments: { path: 'dead.md', content: '# Dead\n\n[gone](/gone)\n' } }] };
