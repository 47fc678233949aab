import assert from 'node:assert/strict';
import { FEATURES } from '../../../api/features.js';
import { openApiDocument } from '../../../api/openapi/index.js';
import { testServices } from '../../support/services.js';

/** Every route the app serves, as `METHOD /path/{param}`, read from the routers themselves. */
async function servedRoutes(): Promise<string[]> {
  const services = await testServices({ withTemporal: false });
  const routes = new Set<string>();
  for (const feature of FEATURES) {
    for (const layer of feature(services).stack) {
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        routes.add(`${method} ${layer.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
      }
    }
  }
  return [...routes].sort();
}

describe('the OpenAPI document covers the API', () => {
  it('documents exactly the routes the routers serve', async () => {
    const document = openApiDocument('http://localhost:3000');
    const paths = document.paths as Record<string, Record<string, unknown>>;
    const documented = Object.entries(paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    assert.deepEqual(documented, await servedRoutes());
  });

  it('gives every operation its error responses in the shared shape', () => {
    const paths = openApiDocument('http://localhost:3000').paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400 || path === '/readyz') continue;
          assert.deepEqual(response.content?.['application/json']?.schema, { $ref: '#/components/schemas/Error' }, `${method} ${path} ${status}`);
        }
      }
    }
  });
});
