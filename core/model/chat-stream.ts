import type OpenAI from 'openai';
import { request, type Dispatcher } from 'undici';
import { ModelStreamError, modelErrorForStatus, notACompletion, TransientModelError } from './errors.js';
import { wellFormedJson } from '../unicode.js';
import { eventData, pieceOf } from './event-stream.js';
import type { ChatMessage, ChatStreamBatch, ChatTool, StreamedToolCall } from './types.js';

/** The default of QUIRE_MODEL_STREAM_IDLE_TIMEOUT_MS: silence from a streaming provider for this long ends the answer. */
export const STREAM_IDLE_TIMEOUT_MS = 60_000;

/** undici's idle timeouts as what they mean for the answer (transient: another request may be answered); any other error as it is. */
function silence(err: unknown, idleTimeoutMs: number): unknown {
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
  if (code !== 'UND_ERR_HEADERS_TIMEOUT' && code !== 'UND_ERR_BODY_TIMEOUT') return err;
  const when = code === 'UND_ERR_HEADERS_TIMEOUT' ? 'before its answer' : 'mid-answer';
  return new TransientModelError(`the model endpoint sent nothing for ${idleTimeoutMs / 1000} s ${when} (QUIRE_MODEL_STREAM_IDLE_TIMEOUT_MS)`, undefined, undefined, { cause: err });
}

/** The provider's own error message from an error body, when it is JSON in the usual shape. */
function reportedMessage(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null || !('error' in parsed)) return undefined;
    const error = parsed.error;
    return typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One streamed Chat Completions answer, its text batched per network read.
 * The `openai` client builds the request (URL, auth header, Azure's path and
 * api-version); undici sends it on the shared dispatcher and the linear reader
 * parses the events: in `bench:assistant` the `openai` client's own stream
 * cost about four times the CPU per answer from an instant model, and from a
 * realistic one (300 ms, then 30 tokens/s) its median first byte came almost
 * three times later under load.
 */
export async function* streamChatCompletion(
  client: OpenAI,
  dispatcher: Dispatcher,
  input: { model: string; messages: ChatMessage[]; tools?: ChatTool[] | undefined; signal: AbortSignal },
  idleTimeoutMs = STREAM_IDLE_TIMEOUT_MS,
): AsyncGenerator<ChatStreamBatch> {
  const tools = input.tools?.length ? { tools: input.tools, tool_choice: 'auto' } : {};
  const body = { model: input.model, messages: input.messages, ...tools, stream: true, stream_options: { include_usage: true } };
  // The client builds the URL and headers (Azure's deployment path reads the model from the body);
  // the body itself is serialized once, here, with no lone surrogate a strict provider would refuse.
  const built = await client.buildRequest({ method: 'post', path: '/chat/completions', body: { model: input.model }, headers: { accept: 'text/event-stream' } });
  const headers: Record<string, string> = {};
  new Headers(built.req.headers).forEach((value, name) => (headers[name] = value));
  const res = await request(built.url, {
    method: 'POST',
    headers,
    body: wellFormedJson(body),
    dispatcher,
    signal: input.signal,
    // A provider that sends nothing (no headers, then no event) for this long is given up: a reader
    // waiting on a stream is told it failed, not held for the client's ten minutes.
    headersTimeout: idleTimeoutMs,
    bodyTimeout: idleTimeoutMs,
  }).catch((err: unknown) => {
    throw silence(err, idleTimeoutMs);
  });
  if (res.statusCode < 200 || res.statusCode >= 300) {
    const text = await res.body.text().catch(() => '');
    const header = (name: string) => {
      const value = res.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    throw modelErrorForStatus(res.statusCode, header, reportedMessage(text));
  }
  // A 200 that is a JSON document, not an event stream: some gateways answer their errors so. Read
  // as a stream it would end cleanly with no text, an empty answer told as a success.
  const type = String(res.headers['content-type'] ?? '');
  if (/^application\/json/i.test(type)) {
    const text = await res.body.text().catch(() => '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    throw notACompletion(body);
  }
  let finished = false;
  // Tool calls arrive in pieces, by index: the first names the call, the rest extend its arguments.
  const calls: StreamedToolCall[] = [];
  try {
    // Leaving at `[DONE]` must not destroy the body: its connection goes back to the keep-alive pool.
    for await (const batch of eventData(res.body.iterator({ destroyOnReturn: false }))) {
      const out: ChatStreamBatch = { text: '' };
      for (const data of batch.data) {
        const piece = pieceOf(JSON.parse(data));
        if (piece.error) {
          // The text that came before the error in the same read is the reader's partial answer.
          if (out.text) yield { text: out.text };
          throw new ModelStreamError(`the model reported an error mid-answer: ${piece.error.slice(0, 300)}`, undefined);
        }
        if (piece.text) out.text += piece.text;
        if (piece.usage) out.usage = piece.usage;
        if (piece.finishReason) out.finishReason = piece.finishReason;
        for (const part of piece.toolCalls ?? []) {
          const call = (calls[part.index] ??= { id: '', name: '', arguments: '' });
          if (part.id) call.id = part.id;
          if (part.name) call.name += part.name;
          if (part.arguments) call.arguments += part.arguments;
        }
      }
      if (out.text || out.usage || out.finishReason) yield out;
    }
    const made = calls.filter((call) => call.name);
    if (made.length > 0) yield { text: '', toolCalls: made };
    // `[DONE]`, or a body that ended cleanly (servers that send no `[DONE]`); a cut connection throws instead.
    finished = true;
  } catch (err) {
    throw silence(err, idleTimeoutMs);
  } finally {
    if (finished) await res.body.dump().catch(() => undefined);
    else {
      // Closing the connection of an unfinished answer; the abort error it raises has nobody left to tell.
      res.body.on('error', () => undefined);
      res.body.destroy();
    }
  }
}
