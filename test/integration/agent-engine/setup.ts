import { MockActivityEnvironment } from '@temporalio/testing';
import { createAgentActivities } from '../../../activities/agent/index.js';
import type { ActivityServices } from '../../../activities/index.js';
import { startFakeModel, type FakeModelServer, type Script } from '../../fakes/chat-completions-server.js';
import { createDocsRepo, type DocsRepo, type DocsRepoOptions } from '../../support/docs-repo.js';
import { testServices } from '../../support/services.js';

export interface EngineFixture {
  services: ActivityServices;
  repo: DocsRepo;
  model: FakeModelServer;
  activities: ReturnType<typeof createAgentActivities>;
  /** Runs an activity function inside the SDK's real activity context (heartbeats, cancellation). */
  inActivity<R>(fn: () => Promise<R>): Promise<R>;
}

/** A project over a real bare repository, a scripted model and the agent activities. */
export async function engineFixture(
  opts: { repo?: DocsRepoOptions; env?: Record<string, string>; script?: Script; projectId?: string } = {},
): Promise<EngineFixture> {
  const model = await startFakeModel(opts.script ?? []);
  const repo = await createDocsRepo({ pages: 3, withNav: true, ...opts.repo });
  const services = await testServices({
    withTemporal: false,
    env: { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model', ...opts.env },
  });
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
  };
}

export function turnInput(jobId: string, prompts: string[], turn = 1) {
  return { jobId, projectId: 'docs', model: 'test-model', branch: `quire/${jobId}`, turn, messages: prompts.map((prompt, i) => ({ id: `m${turn}-${i}`, prompt })) };
}

/** A model reply that writes a page with a link to a page that does not exist (a validation error). */
export const writeDeadLinkPage = { toolCalls: [{ name: 'write_file', arguments: { path: 'dead.md', content: '# Dead\n\n[gone](/gone)\n' } }] };
