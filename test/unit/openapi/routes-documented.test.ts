import assert from 'node:assert/strict';
import type Router from '@koa/router';
import { browserRoutes } from '../../../api/browser-routes.js';
import { FEATURES } from '../../../api/features.js';
import { openApiDocument, type PathItems } from '../../../api/openapi/index.js';
import { testServices } from '../../support/services.js';

/** `:domain` and the wildcard `{*page}` in Koa's syntax are `{domain}` and `{page}` in OpenAPI's. */
const template = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\{\*([A-Za-z0-9_]+)\}/g, '{$1}');

/** Every `METHOD /template` a router serves: its route layers (middleware from `use` has no methods; HEAD rides on GET). */
function served(router: Router, only?: string): string[] {
  return router.stack.flatMap((layer) => {
    if (typeof layer.path !== 'string') return [];
    const methods = layer.methods.filter((m) => m !== 'HEAD' && (!only || m === only));
    return methods.map((m) => `${m.toLowerCase()} ${template(layer.path as string)}`);
  });
}

describe('the OpenAPI document and the routers: every route is documented, every documented operation is served', function () {
  let routes: Set<string>;
  const paths = openApiDocument('http://localhost').paths as PathItems;
  const documented = new Set(Object.entries(paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`)));

  before(async () => {
    const services = await testServices({ withTemporal: false });
    // The browser router answers preflights for its endpoints (other methods pass through to the features).
    routes = new Set([...FEATURES.flatMap((feature) => served(feature(services))), ...served(browserRoutes(services), 'OPTIONS')]);
  });

  it('has an operation for each route the Koa routers register', () => {
    const missing = [...routes].filter((route) => !documented.has(route));
    assert.deepEqual(missing, [], 'routes without an operation');
    assert.ok(routes.size > 50, `found ${routes.size} routes`);
  });

  it('names no path or method that no router serves', () => {
    const unserved = [...documented].filter((operation) => !routes.has(operation));
    assert.deepEqual(unserved, [], 'operations no router serves');
  });
});
