import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import type * as v from 'valibot';
import { LimitStoreUnavailableError } from '../../core/limits/index.js';
import { callerKind } from '../analytics/caller-kind.js';
import { requireKey, authOf } from '../auth.js';
import { setRateLimitHeaders } from '../error-middleware.js';
import { notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import type { WriterFactory } from './answer-writer.js';
import { runAnswer } from './answer-stream.js';
import { conversationOf } from './conversation.js';
import { DataStreamWriter } from './data-stream.js';
import { assistantLimits } from './limits.js';
import { V1Body, V2Body } from './schema.js';
import { openThread } from './thread-access.js';
import { UiMessageStreamWriter } from './ui-message-stream.js';

interface Protocol {
  body: typeof V1Body | typeof V2Body;
  writer: WriterFactory;
  /** Extra response headers (the v1 deprecation notice). */
  headers(domainId: string): Record<string, string>;
}

const V2: Protocol = { body: V2Body, writer: (out, ids) => new UiMessageStreamWriter(out, ids), headers: () => ({}) };
const V1: Protocol = {
  body: V1Body,
  writer: (out, ids) => new DataStreamWriter(out, ids),
  headers: (domainId) => ({
    Deprecation: 'true',
    Link: `</discovery/v2/assistant/${encodeURIComponent(domainId)}/message>; rel="successor-version"`,
  }),
};

/** What the assistant routes use. */
export type AssistantRouterDeps = Pick<ApiServices, 'tenants' | 'limiter' | 'answers' | 'config' | 'logger'>;

/** The assistant endpoints: v2 (UI message stream) and v1 (data stream, deprecated), over the answer service. */
export function assistantRouter(services: AssistantRouterDeps): Router {
  const { config, tenants, limiter, logger, answers } = services;
  const router = new Router();

  const handle = (protocol: Protocol) => async (ctx: Context) => {
    const { key, orgId } = authOf(ctx);
    const domainId = String(ctx.params.domain ?? '');
    const domain = await tenants.getDomain(domainId);
    // Another organisation's domain is answered exactly like a missing one.
    if (!domain || domain.orgId !== orgId) throw notFound(`domain '${domainId}'`);
    const body: v.InferOutput<typeof V1Body> | v.InferOutput<typeof V2Body> = parseInput(protocol.body, ctx.request.body ?? {});

    const org = await tenants.getOrg(orgId);
    const limit = await limiter.consume(assistantLimits({ keyId: key.id, orgId, ip: ctx.ip }, org?.limits)).catch((err: unknown) => {
      if (err instanceof LimitStoreUnavailableError) logger.warn({ err: err.message, orgId }, 'assistant refused: rate-limit store unavailable');
      throw err;
    });
    setRateLimitHeaders(ctx, limit);

    const thread = await openThread(answers, { orgId, domainId: domain.id, threadId: body.threadId, threadKey: body.threadKey }, logger);
    const { threadId } = thread.ref;
    const conversation = conversationOf(body.messages, thread.transcript);
    const prepared = await answers.prepare({
      domain,
      conversation,
      filter: body.filter ?? undefined,
      pageSize: body.retrievalPageSize,
      currentPath: body.currentPath,
      context: body.context,
    });

    // From here on the response is a stream: failures become error parts inside it.
    const controller = new AbortController();
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) controller.abort();
    });
    const out = new PassThrough();
    const messageId = `msg_${randomUUID()}`;
    const writer = protocol.writer(out, { messageId, threadId, ...(thread.key ? { threadKey: thread.key } : {}), queryRewrite: prepared.rewrite });
    ctx.status = 200;
    ctx.set({ ...writer.headers, ...protocol.headers(domain.id), 'X-Thread-Id': threadId });
    if (thread.key) ctx.set('X-Thread-Key', thread.key);
    ctx.body = out;
    writer.inOneWrite(() => {
      writer.start();
      writer.retrieval(answers.searchCall(prepared, `call_${randomUUID()}`));
    });

    const run = answers.answer(prepared, {
      signal: controller.signal,
      trace: {
        id: messageId,
        orgId,
        domainId: domain.id,
        threadId,
        surface: 'assistant',
        caller: callerKind(ctx, domain),
        fp: body.fp || null,
        currentPath: body.currentPath ?? null,
      },
      thread: thread.record ? thread.ref : undefined,
      suggestions: true,
      onSearch: (call) => writer.retrieval(call),
    });
    void runAnswer({
      writer,
      run,
      citations: prepared.citations,
      signal: controller.signal,
      logger,
      threadId,
      end: () => {
        out.end();
        if (ctx.res.closed) return;
        // The last bytes too must be read in bounded time, or the connection would stay open for ever.
        const stalled = setTimeout(() => ctx.res.destroy(), config.http.streamStallTimeoutMs);
        ctx.res.once('close', () => clearTimeout(stalled));
      },
      stallTimeoutMs: config.http.streamStallTimeoutMs,
      onStall: () => {
        controller.abort();
        ctx.res.destroy();
      },
    }).catch((err: unknown) => {
      logger.error({ err, threadId }, 'assistant stream failed');
      out.end();
    });
  };

  const auth = requireKey(tenants, 'assistant');
  router.post('/discovery/v2/assistant/:domain/message', auth, handle(V2));
  router.post('/discovery/v1/assistant/:domain/message', auth, handle(V1));
  return router;
}
