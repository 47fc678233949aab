import Router from '@koa/router';
import { anyOrigin, browserCors, domainOrigins, type CorsOptions } from './cors.js';
import type { ApiServices } from './services.js';

/** An endpoint pages on other origins may call, and how its CORS is answered. */
export interface BrowserEndpoint {
  /** The route, in Koa's syntax (`:domain`). */
  path: string;
  /** What the OpenAPI preflight entry calls it. */
  what: string;
  /** `domain`: the origins the domain lists (any, when none); `any`: every origin. */
  origins: 'domain' | 'any';
  methods: readonly string[];
  allowHeaders?: CorsOptions['allowHeaders'];
  exposeHeaders?: readonly string[];
}

/**
 * Every endpoint a page on another origin may call. The app mounts these
 * before body parsing and the feature routers, so a 400, 413 or 415 is as
 * readable in the browser as the answer. A feature meant for browsers adds
 * its paths here (the OpenAPI document's preflights are built from this
 * list); admin endpoints are never listed, so they answer no CORS at all.
 */
export const BROWSER_ENDPOINTS: readonly BrowserEndpoint[] = [
  { path: '/discovery/v2/assistant/:domain/message', what: 'v2 assistant message', origins: 'domain', methods: ['POST'] },
  { path: '/discovery/v1/assistant/:domain/message', what: 'v1 assistant message', origins: 'domain', methods: ['POST'] },
  { path: '/discovery/v1/assistant/:domain/feedback', what: 'assistant feedback', origins: 'domain', methods: ['POST'] },
  { path: '/discovery/v1/assistant/:domain/threads/:threadId', what: 'thread erasure', origins: 'domain', methods: ['DELETE'], allowHeaders: ['X-Thread-Key'] },
  // The search id is readable so the page can report a click on a result.
  { path: '/discovery/v1/search/:domain', what: 'search', origins: 'domain', methods: ['POST'], exposeHeaders: ['X-Search-Id'] },
  { path: '/discovery/v1/search/:domain/click', what: 'search click', origins: 'domain', methods: ['POST'] },
  { path: '/discovery/v1/analytics/:domain/page-view', what: 'page-view beacon', origins: 'domain', methods: ['POST'] },
  { path: '/discovery/v1/page/:domain', what: 'page', origins: 'domain', methods: ['POST'] },
  {
    path: '/mcp/:domain',
    what: 'the MCP server',
    origins: 'domain',
    methods: ['POST', 'GET', 'DELETE'],
    allowHeaders: ['Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'],
    exposeHeaders: ['Mcp-Session-Id'],
  },
  ...['/chat/completions', '/models', '/models/:model'].map(
    (tail): BrowserEndpoint => ({
      path: `/discovery/v1/openai/:domain${tail}`,
      what: `OpenAI-compatible ${tail.slice(1).replace('/:model', ' by id')}`,
      origins: 'domain',
      methods: [tail === '/chat/completions' ? 'POST' : 'GET'],
      allowHeaders: 'requested',
    }),
  ),
  // Public like a site's own llms.txt: any origin, and the ETag readable and sendable back for conditional requests.
  ...['/discovery/v1/llms/:domain.txt', '/discovery/v1/llms/:domain/llms.txt', '/discovery/v1/llms/:domain/llms-full.txt'].map(
    (path): BrowserEndpoint => ({ path, what: path.endsWith('full.txt') ? 'llms-full.txt' : 'llms.txt', origins: 'any', methods: ['GET'], allowHeaders: ['If-None-Match'], exposeHeaders: ['ETag'] }),
  ),
  { path: '/widget.js', what: 'the widget script', origins: 'any', methods: ['GET'] },
];

/** What the browser routes use: the domains whose origins may call, and the public URL. */
export type BrowserRoutesDeps = Pick<ApiServices, 'tenants' | 'config'>;

export function browserRoutes(services: BrowserRoutesDeps): Router {
  const router = new Router();
  const perDomain = domainOrigins(services.tenants, services.config.publicUrl);
  for (const { path, origins, ...headers } of BROWSER_ENDPOINTS) {
    // Its own methods and the preflight only: a layer for every method would count as a match of
    // any method, and the feature routers' 405 (with Allow) would become a 404.
    const methods = [...headers.methods, ...(headers.methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
    router.register(path, methods, browserCors({ policy: origins === 'domain' ? perDomain : anyOrigin, ...headers }));
  }
  return router;
}
