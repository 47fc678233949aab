import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import { recordAiView } from '../analytics/ai-views.js';
import { callerKind } from '../analytics/caller-kind.js';
import { AnswerCutShortError, assistantLimits, MAX_SOURCES, ModelFailedError, numberedCitations, type PreparedAnswer } from '../assistant/index.js';
import { authOf, ownDomain, requireKey } from '../auth.js';
import { giveBackLimit, setRateLimitHeaders } from '../error-middleware.js';
import { HttpError, notFound } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { parseInput } from '../validation.js';
import { conversationFrom } from './conversation.js';
import type * as v from 'valibot';
import { ChatCompletionBody, type ModelListSchema } from './schema.js';
import { SSE_HEADERS, streamCompletion } from './stream-completion.js';
import { UnavailableError } from '../../core/errors.js';
import { RateLimitedModelError } from '../../core/model/index.js';
import { completion, MODEL_ID, modelObject, type FinishReason } from './wire-format.js';

const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * A model failure before the answer: a provider rate limiting Quire is a 503 with its Retry-After,
 * so the client backs off (OpenAI's clients retry a 503 after it); any other failure of the
 * provider is a 502, the gateway's answer for an upstream that failed.
 */
function modelFailureAnswer(err: ModelFailedError): Error {
  const cause = err.cause;
  if (cause instanceof RateLimitedModelError) {
    const retryAfterSeconds = cause.retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(cause.retryAfterMs / 1000));
    return new UnavailableError('model', err.message, { cause, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) });
  }
  return new HttpError(502, 'model_failed', err.message);
}

/** What the OpenAI-compatible endpoint uses. */
export type OpenAiCompatRouterDeps = Pick<ApiServices, 'tenants' | 'limiter' | 'answers' | 'analytics' | 'logger'>;

/**
 * An OpenAI-compatible Chat Completions endpoint per domain, so any OpenAI
 * client library can ask the docs: the assistant's retrieval, prompt,
 * answerer and limits, answered in OpenAI's wire format (errors included).
 * Stateless like Chat Completions itself: the client sends the history.
 */
export function openAiCompatRouter(services: OpenAiCompatRouterDeps): Router {
  const { tenants, limiter, logger, answers } = services;
  const router = new Router({ prefix: '/discovery/v1/openai/:domain' });
  // Its errors are answered in OpenAI's wire format (api/app.ts, by the path prefix).
  router.use(requireKey(tenants, 'assistant'));

  router.get('/models', async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    const list: v.InferOutput<typeof ModelListSchema> = { object: 'list', data: [modelObject(domain.orgId, unixSeconds(domain.createdAt))] };
    ctx.body = list;
  });

  router.get('/models/:model', async (ctx) => {
    const domain = await ownDomain(tenants, ctx);
    if (ctx.params.model !== MODEL_ID) throw notFound(`model '${ctx.params.model}' (this endpoint offers '${MODEL_ID}')`);
    ctx.body = modelObject(domain.orgId, unixSeconds(domain.createdAt));
  });

  router.post('/chat/completions', async (ctx) => {
    const { key, orgId } = authOf(ctx);
    const domain = await ownDomain(tenants, ctx);
    const body = parseInput(ChatCompletionBody, ctx.request.body ?? {});
    const org = await tenants.getOrg(orgId);
    const spent = await limiter.consume(assistantLimits({ keyId: key.id, orgId, ip: ctx.ip }, org?.limits));
    setRateLimitHeaders(ctx, spent);

    const controller = new AbortController();
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) controller.abort();
    });
    const ids = { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000) };
    const trace = { id: ids.id, orgId, domainId: domain.id, threadId: null, surface: 'openai' as const, caller: callerKind(ctx, domain), fp: null, currentPath: null };
    recordAiView(services, ctx, domain.id, '/openai/chat/completions');
    let prepared: PreparedAnswer;
    try {
      prepared = await answers.prepare({ domain, conversation: conversationFrom(body.messages), filter: body.filter ?? undefined, pageSize: MAX_SOURCES }, controller.signal);
    } catch (err) {
      // Refused before the answer (no question, retrieval down, …): the request spends nothing,
      // unless its client left meanwhile (what it abandons, it has spent).
      if (!controller.signal.aborted) await giveBackLimit(ctx, limiter, spent);
      throw err;
    }
    const run = answers.answer(prepared, { signal: controller.signal, trace });
    const citations = numberedCitations(prepared.citations);

    if (body.stream) {
      const out = new PassThrough();
      ctx.status = 200;
      ctx.set(SSE_HEADERS);
      ctx.body = out;
      const withUsage = body.stream_options?.include_usage === true;
      void streamCompletion({ out, ids, run, citations, withUsage, signal: controller.signal, logger }).catch((err: unknown) => {
        logger.error({ err, id: ids.id }, 'chat completion stream failed');
        out.end();
      });
      return;
    }

    let text = '';
    let finishReason: FinishReason = 'stop';
    try {
      for await (const delta of run.deltas) text += delta;
    } catch (err) {
      // An answer the model cut short is still an answer: its text, with the reason it ended.
      if (err instanceof AnswerCutShortError) finishReason = err.finishReason;
      else {
        // No answer after all (the model failed or is rate limited, …): as a refusal, it spends
        // nothing. A streamed answer has begun by then, and is spent.
        if (!controller.signal.aborted) await giveBackLimit(ctx, limiter, spent);
        throw err instanceof ModelFailedError ? modelFailureAnswer(err) : err;
      }
    }
    ctx.body = completion(ids, text, citations, run.usage(), finishReason);
  });

  return router;
}
