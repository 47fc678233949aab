import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import type * as v from 'valibot';
import { LimitStoreUnavailableError } from '../../core/limits/index.js';
import type { ThreadTranscript } from '../../core/threads/index.js';
import { callerKind } from '../analytics/caller-kind.js';
import { requireKey, authOf } from '../auth.js';
import { giveBackLimit, setRateLimitHeaders } from '../error-middleware.js';
import { notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import type { PreparedAnswer } from './answer-service.js';
import type { WriterFactory } from './answer-writer.js';
import { runAnswer } from './answer-stream.js';
import { conversationOf } from './conversation.js';
import { DataStreamWriter } from './data-stream.js';
import { assistantLimits } from './limits.js';
import { V1Body, V2Body } from './schema.js';
import { openThread, type ThreadAccess } from './thread-access.js';
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

/**
 * The exchange a `regenerate-message` request answers again: the one its `messageId` names (the
 * assistant message id the stream gave), else the thread's last. The new answer replaces it and
 * the exchanges after it, and the thread before it is the history (for a client that sends only
 * the question). Undefined for a new thread or one with nothing to answer again.
 */
function regenerated(transcript: ThreadTranscript | undefined, messageId: string | undefined): { replacing: string; before: ThreadTranscript } | undefined {
  const exchanges = transcript?.exchanges ?? [];
  if (!transcript || exchanges.length === 0) return undefined;
  const named = messageId ? exchanges.findIndex((x) => x.messageId === messageId) : -1;
  const at = named >= 0 ? named : exchanges.length - 1;
  return { replacing: exchanges[at]!.messageId, before: { ...transcript, exchanges: exchanges.slice(0, at) } };
}

/** What the assistant routes use. */
export type AssistantRouterDeps = Pick<ApiServices, 'tenants' | 'limiter' | 'answers' | 'config' | 'logger'>;

/** The assistant endpoints: v2 (UI message stream) and v1 (data stream, deprecated), over the answer service. */
export function assistantRouter(services: AssistantRouterDeps): Router {
  const { config, tenants, limiter, logger, answers } = services;
  const router = new Router();

  const handle = (protocol: Protocol) => async (ctx: Context) => {
    // From the first moment: a reader who leaves while the answer is prepared must not have the model asked.
    const controller = new AbortController();
    const res = ctx.res;
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
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

    let thread: ThreadAccess;
    let again: ReturnType<typeof regenerated>;
    let prepared: PreparedAnswer;
    try {
      thread = await openThread(answers, { orgId, domainId: domain.id, threadId: body.threadId, threadKey: body.threadKey }, logger);
      // AI SDK 5's `regenerate` (v1 clients send no trigger).
      again = body.trigger === 'regenerate-message' ? regenerated(thread.transcript, typeof body.messageId === 'string' ? body.messageId : undefined) : undefined;
      const conversation = conversationOf(body.messages, again?.before ?? thread.transcript);
      prepared = await answers.prepare(
        {
          domain,
          conversation,
          filter: body.filter ?? undefined,
          pageSize: body.retrievalPageSize,
          currentPath: body.currentPath,
          context: body.context,
        },
        controller.signal,
      );
    } catch (err) {
      // Refused before its stream begins (an unknown thread, no question, retrieval down, …): the
      // request spends nothing. From the stream on, the answer is served, and spent.
      await giveBackLimit(ctx, limiter, limit);
      throw err;
    }
    const { threadId } = thread.ref;

    const messageId = `msg_${randomUUID()}`;
    const writer = protocol.writer(res, { messageId, threadId, ...(thread.key ? { threadKey: thread.key } : {}), queryRewrite: prepared.rewrite });
    const firstSearch = answers.searchCall(prepared, `call_${randomUUID()}`);
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
      replacing: again?.replacing,
      suggestions: true,
      onSearch: (call) => writer.retrieval(call),
    });
    if (controller.signal.aborted) {
      // Nobody reads: nothing is written, and the answer ends at once, kept as abandoned.
      ctx.respond = false;
      await run.deltas[Symbol.asyncIterator]().next();
      return;
    }

    // From here on the response is a stream, written to the socket's response directly (Koa would
    // pipe a PassThrough into it, a stream and a pipeline per answer): nothing below throws, and
    // failures become error parts inside the stream.
    ctx.status = 200;
    for (const [name, value] of Object.entries(writer.headers)) res.setHeader(name, value);
    for (const [name, value] of Object.entries(protocol.headers(domain.id))) res.setHeader(name, value);
    res.setHeader('X-Thread-Id', threadId);
    if (thread.key) res.setHeader('X-Thread-Key', thread.key);
    ctx.respond = false;
    // A write after the end is a defect to log, not an 'error' event that would take the process down.
    res.on('error', (err) => logger.warn({ err, threadId }, 'assistant response write failed'));
    writer.inOneWrite(() => {
      writer.start();
      writer.retrieval(firstSearch);
    });

    void runAnswer({
      writer,
      run,
      citations: prepared.citations,
      signal: controller.signal,
      logger,
      threadId,
      end: async () => {
        // The exchange is committed first: a follow-up or a rating the reader sends the moment the
        // stream ends, through another API replica, finds it (and appends after it, not before).
        if (thread.record && !res.closed) await answers.committed(orgId, threadId);
        res.end();
        if (res.closed) return;
        // The last bytes too must be read in bounded time, or the connection would stay open for ever.
        const stalled = setTimeout(() => res.destroy(), config.http.streamStallTimeoutMs);
        res.once('close', () => clearTimeout(stalled));
      },
      stallTimeoutMs: config.http.streamStallTimeoutMs,
      onStall: () => {
        controller.abort();
        res.destroy();
      },
    }).catch((err: unknown) => {
      logger.error({ err, threadId }, 'assistant stream failed');
      res.end();
    });
  };

  const auth = requireKey(tenants, 'assistant');
  router.post('/discovery/v2/assistant/:domain/message', auth, handle(V2));
  router.post('/discovery/v1/assistant/:domain/message', auth, handle(V1));
  return router;
}
