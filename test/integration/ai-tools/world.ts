import path from 'node:path';
import { createApp } from '../../../api/app.js';
import type { Feature } from '../../../api/services.js';
import { EmbeddedDocIndex, indexDocs } from '../../../core/retrieval/index.js';
import type { OrgLimits } from '../../../core/tenants/index.js';
import { startFakeModel, type FakeModelServer, type Script } from '../../fakes/chat-completions-server.js';
import { seedOrg, serve, testServices, withDocIndex } from '../../support/services.js';

export const EXAMPLE_DOCS = path.resolve(__dirname, '..', '..', '..', 'infra', 'example-docs');
export const BASE_URL = 'https://docs.skylark.dev';

export interface WorldOptions {
  features: Feature[];
  /** A scripted model (the fake stands in for an OpenAI-compatible provider); without one, answers are extractive. */
  script?: Script;
  orgLimits?: OrgLimits;
  /** More of the environment, such as `REDIS_URL` to count the limits in a real redis-server. */
  env?: Record<string, string>;
}

/**
 * The API over the example docs, indexed into the real embedded index in the
 * data directory the app opens: organisation `acme` owns domain `skylark`,
 * organisation `other` owns `theirs`.
 */
export async function aiToolsWorld(opts: WorldOptions) {
  const model: FakeModelServer | undefined = opts.script !== undefined ? await startFakeModel(opts.script) : undefined;
  const env: Record<string, string> = {
    ...opts.env,
    ...(model ? { QUIRE_MODEL: 'test-model', QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-secret' } : {}),
  };
  const built = await testServices({ env, withTemporal: false });
  if (opts.orgLimits) await built.tenants.addOrg('acme', opts.orgLimits);
  const org = await seedOrg(built);
  const other = await seedOrg(built, 'other');
  const domain = { source: EXAMPLE_DOCS, docsPath: '', baseUrl: BASE_URL, includeHidden: false };
  await built.tenants.putDomain({ id: 'skylark', orgId: 'acme', ...domain });
  await built.tenants.putDomain({ id: 'theirs', orgId: 'other', ...domain });
  const index = new EmbeddedDocIndex(path.join(built.config.dataDir, 'index'));
  await indexDocs(index, 'skylark', EXAMPLE_DOCS, { includeHidden: false });
  await indexDocs(index, 'theirs', EXAMPLE_DOCS, { includeHidden: false });
  const services = withDocIndex(built, index);
  const api = await serve(createApp(services, opts.features));
  return {
    url: api.url,
    services,
    org,
    other,
    model,
    index,
    close: async () => {
      await api.close();
      await model?.close();
    },
  };
}
