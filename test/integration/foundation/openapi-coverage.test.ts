import assert from 'node:assert/strict';
import Router from '@koa/router';
import { browserRoutes } from '../../../api/browser-routes.js';
import { FEATURES } from '../../../api/features.js';
import { openApiDocument } from '../../../api/openapi/index.js';
import { testServices } from '../../support/services.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Every route the app serves, as `METHOD /path/{param}`, read from the routers themselves. */
async function servedRoutes(): Promise<string[]> {
  const services = await testServices({ withTemporal: false });
  const routes = new Set<string>();
  // The CORS routes answer only preflights themselves; every other method passes on to the features.
  const routers: Array<{ router: Router; only?: string }> = [
    ...FEATURES.map((feature) => ({ router: feature(services) })),
    { router: browserRoutes(services), only: 'OPTIONS' },
  ];
  for (const { router, only } of routers) {
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string') continue;
      for (const method of layer.methods) {
        if (method === 'HEAD' || (only && method !== only)) continue;
        routes.add(`${method} ${layer.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
      }
    }
  }
  return [...routes].sort();
}

describe('the OpenAPI document covers the API', () => {
  it('documents exactly the routes the routers serve', async () => {
    const { paths } = openApiDocument('http://localhost:3000');
    assert.ok(isRecord(paths));
    const documented = Object.entries(paths)
      .flatMap(([path, item]) => Object.keys(isRecord(item) ? item : {}).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    assert.deepEqual(documented, await servedRoutes());
  });
});
