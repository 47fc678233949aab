import Router from '@koa/router';
import { authOf, requireKey } from '../auth.js';
import { notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';

/** What the thread routes use. */
export type ThreadsRouterDeps = Pick<ApiServices, 'tenants' | 'threads'>;

/** `GET /v1/admin/threads/{threadId}`: an assistant conversation, for an admin of its organisation. */
export function threadsRouter(services: ThreadsRouterDeps): Router {
  const { threads } = services;
  const router = new Router();
  router.get('/v1/admin/threads/:threadId', requireKey(services.tenants, 'admin'), async (ctx) => {
    const { orgId } = authOf(ctx);
    const threadId = String(ctx.params.threadId ?? '');
    // Threads are stored per organisation: another org's id is simply not found here.
    const thread = threadId.length <= 128 ? await threads.load(orgId, threadId) : undefined;
    if (!thread) throw notFound(`thread '${threadId.slice(0, 128)}'`);
    // Even the key's hash stays in the store: an admin reads the thread, never continues it.
    const { keyHash: _keyHash, ...transcript } = thread;
    ctx.body = transcript;
  });
  return router;
}
