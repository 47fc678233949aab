/**
 * Stands in for an OpenAI-compatible model provider (OpenAI, vLLM, Ollama,
 * LiteLLM), or with `azure` for Azure OpenAI: a real HTTP server speaking the
 * Chat Completions and Embeddings protocols, so the production model port runs
 * unchanged. Tests script each reply and assert on the recorded requests.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { onSuiteEnd } from '../support/teardown.js';

export interface ToolCallScript {
  name: string;
  /** Arguments as an object (serialised) or a raw string (to send malformed JSON). */
  arguments: Record<string, unknown> | string;
  id?: string;
}

/** One scripted model reply. */
export type Reply =
  | { text: string; toolCalls?: ToolCallScript[]; usage?: { prompt: number; completion: number }; finishReason?: string }
  | { toolCalls: ToolCallScript[]; text?: string; usage?: { prompt: number; completion: number } }
  | { error: { status: number; message?: string; type?: string; code?: string; retryAfterSeconds?: number; retryAfterMs?: number } }
  /** Streams `text` then, after `afterChars`, breaks the connection or, with `errorEvent`, sends that error as an event. */
  | { failMidStream: { text: string; afterChars: number; errorEvent?: string } }
  /** Never answers: holds the request until the client gives up (counted in `aborted`). */
  | { hang: true }
  /** Answers 200 with this JSON body as it is, as some OpenAI-compatible gateways answer their errors. */
  | { body200: unknown };

type ScriptedError = Extract<Reply, { error: unknown }>['error'];

export interface RecordedRequest {
  path: string;
  /** The query string (Azure's `api-version`). */
  query: URLSearchParams;
  /** The client's port as this server saw it (to tell which connection, or proxy tunnel, it came through). */
  remotePort: number | undefined;
  headers: http.IncomingHttpHeaders;
  body: {
    model: string;
    messages: Array<{ role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }>;
    tools?: Array<{ type: string; function: { name: string } }>;
    stream?: boolean;
    input?: string | string[];
    [k: string]: unknown;
  };
}

export type Script = Reply[] | ((req: RecordedRequest, index: number) => Reply | Promise<Reply>);

/** Azure OpenAI's conventions: deployment paths, a required `api-version` and the `api-key` header. */
export interface AzureConventions {
  apiVersion: string;
  apiKey: string;
}

export interface FakeModelServer {
  /** OpenAI-compatible base URL (`…/v1`). */
  baseUrl: string;
  /** The server's origin: an Azure resource endpoint when started with `azure`. */
  endpoint: string;
  requests: RecordedRequest[];
  /** Streamed chunks written so far, across requests (to see how far a stream got). */
  chunksWritten: number;
  /** Requests whose client went away before the reply finished. */
  aborted: number;
  /** Emits 'aborted' each time a client goes away before its reply finished, and 'finished' each time a streamed reply ends whole. */
  events: EventEmitter;
  /** Replace the script for the next requests. */
  script(next: Script): void;
  /** Delay between streamed chunks, in milliseconds. */
  chunkDelayMs: number;
  /** When set, embeddings requests fail with this error instead of answering. */
  failEmbeddings: ScriptedError | undefined;
  /** Fails the embeddings request number `n` (0-based, counting every embeddings request) when it returns an error. */
  failEmbeddingRequest: ((n: number) => ScriptedError | undefined) | undefined;
  /** Time the embeddings endpoint takes per input text, like a CPU-bound model (500: 2 texts/s). */
  embeddingDelayMsPerInput: number;
  /** Every text the embeddings endpoint answered with a vector, in order, repeats included. */
  embeddedTexts: string[];
  /** Called when an embeddings request arrives, before it is answered; a promise it returns holds the answer until it settles. */
  onEmbeddingRequest: ((n: number, inputs: string[]) => void | Promise<void>) | undefined;
  close(): Promise<void>;
}

function splitTokens(text: string): string[] {
  return text.match(/\s*\S+|\s+/g) ?? [];
}

/** A deterministic embedding: hashed character trigrams into `dims` buckets, L2-normalised. */
export function fakeEmbedding(text: string, dims = 64): number[] {
  const v = new Array<number>(dims).fill(0);
  const t = ` ${text.toLowerCase()} `;
  for (let i = 0; i + 3 <= t.length; i++) {
    const h = createHash('md5').update(t.slice(i, i + 3)).digest();
    v[h.readUInt16LE(0) % dims]! += 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

const AZURE_PATH = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/;

/** Why Azure would refuse this request, as its status and message; undefined when it follows the conventions. */
function azureRefusal(azure: AzureConventions, req: http.IncomingMessage, path: string, query: URLSearchParams) {
  if (!AZURE_PATH.test(path)) return { status: 404, message: 'Resource not found' };
  if (query.get('api-version') !== azure.apiVersion) return { status: 400, message: 'Unsupported api-version' };
  if (req.headers['api-key'] !== azure.apiKey || req.headers.authorization)
    return { status: 401, message: 'Access denied due to invalid subscription key or wrong API endpoint.' };
  return undefined;
}

function writeError(res: http.ServerResponse, error: ScriptedError) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error.retryAfterMs !== undefined) headers['retry-after-ms'] = String(error.retryAfterMs);
  res.writeHead(error.status, headers);
  res.end(JSON.stringify({ error: { message: error.message ?? 'scripted error', type: error.type ?? 'invalid_request_error', code: error.code ?? null } }));
}

export async function startFakeModel(
  initial: Script = [],
  opts: { embeddingDims?: number; azure?: AzureConventions } = {},
): Promise<FakeModelServer> {
  let script: Script = initial;
  let served = 0;
  let embeddingRequests = 0;
  const state: FakeModelServer = {
    baseUrl: '',
    endpoint: '',
    requests: [],
    chunksWritten: 0,
    aborted: 0,
    events: new EventEmitter(),
    chunkDelayMs: 0,
    failEmbeddings: undefined,
    failEmbeddingRequest: undefined,
    embeddingDelayMsPerInput: 0,
    embeddedTexts: [],
    onEmbeddingRequest: undefined,
    script(next) {
      script = next;
      served = 0;
    },
    close: async () => undefined,
  };

  const nextReply = async (req: RecordedRequest): Promise<Reply> => {
    const i = served++;
    if (typeof script === 'function') return script(req, i);
    const reply = script[i];
    if (!reply) return { error: { status: 500, message: `fake model: no scripted reply #${i}` } };
    return reply;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(err) } }));
      });
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    const body = raw ? (JSON.parse(raw) as RecordedRequest['body']) : ({} as RecordedRequest['body']);
    const recorded: RecordedRequest = { path, query: url.searchParams, remotePort: req.socket.remotePort, headers: req.headers, body };
    state.requests.push(recorded);
    const refusal = opts.azure && azureRefusal(opts.azure, req, path, url.searchParams);
    if (refusal) {
      res.writeHead(refusal.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: String(refusal.status), message: refusal.message } }));
      return;
    }

    if (path.endsWith('/embeddings') && state.failEmbeddings) {
      writeError(res, state.failEmbeddings);
      return;
    }
    if (path.endsWith('/embeddings')) {
      const inputs = (Array.isArray(body.input) ? body.input : [body.input ?? '']).map(String);
      const n = embeddingRequests++;
      await state.onEmbeddingRequest?.(n, inputs);
      const failure = state.failEmbeddingRequest?.(n);
      if (failure) {
        writeError(res, failure);
        return;
      }
      if (state.embeddingDelayMsPerInput > 0) await new Promise((r) => setTimeout(r, state.embeddingDelayMsPerInput * inputs.length));
      // A client that gave up (a cancelled or killed activity) never received these vectors.
      if (req.socket.destroyed) return;
      state.embeddedTexts.push(...inputs);
      // Like OpenAI's text-embedding-3 models, a requested size wins.
      const dims = typeof body.dimensions === 'number' ? body.dimensions : (opts.embeddingDims ?? 64);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          model: body.model,
          data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(String(text), dims) })),
          usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
        }),
      );
      return;
    }
    if (!path.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake model: no route ${path}` } }));
      return;
    }

    const reply = await nextReply(recorded);
    const id = `chatcmpl-${state.requests.length}`;
    const created = Math.floor(Date.now() / 1000);

    if ('error' in reply) {
      writeError(res, reply.error);
      return;
    }
    if ('body200' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body200));
      return;
    }
    if ('hang' in reply) {
      res.on('close', () => {
        state.aborted++;
        state.events.emit('aborted');
      });
      return;
    }

    const toolCalls =
      'toolCalls' in reply && reply.toolCalls
        ? reply.toolCalls.map((t, i) => ({
            id: t.id ?? `call_${state.requests.length}_${i}`,
            type: 'function' as const,
            function: { name: t.name, arguments: typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments) },
          }))
        : undefined;
    const text = 'failMidStream' in reply ? reply.failMidStream.text : (reply.text ?? '');
    const usage = 'usage' in reply && reply.usage ? reply.usage : { prompt: 10, completion: Math.max(1, splitTokens(text).length) };
    const finishReason = toolCalls ? 'tool_calls' : ('finishReason' in reply && reply.finishReason) || 'stop';

    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: text || null, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
              finish_reason: finishReason,
              logprobs: null,
            },
          ],
          usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
        }),
      );
      return;
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    let closed = false;
    res.on('close', () => {
      if (!res.writableFinished) {
        closed = true;
        state.aborted++;
        state.events.emit('aborted');
      }
    });
    const send = async (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => {
      if (closed) return false;
      const room = res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
      state.chunksWritten++;
      // Like a real provider behind TCP: a client that stops reading stops the stream.
      if (!room) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resolve();
          };
          res.on('drain', go);
          res.on('close', go);
        });
      }
      if (state.chunkDelayMs > 0) await new Promise((r) => setTimeout(r, state.chunkDelayMs));
      return !closed;
    };
    if (!(await send({ role: 'assistant', content: '' }))) return;
    let written = 0;
    for (const token of splitTokens(text)) {
      if ('failMidStream' in reply && written >= reply.failMidStream.afterChars) {
        if (reply.failMidStream.errorEvent === undefined) res.destroy();
        else res.end(`data: ${JSON.stringify({ error: { message: reply.failMidStream.errorEvent, type: 'server_error' } })}\n\n`);
        return;
      }
      if (!(await send({ content: token }))) return;
      written += token.length;
    }
    if ('failMidStream' in reply) {
      res.destroy();
      return;
    }
    if (toolCalls) {
      for (const [index, call] of toolCalls.entries()) {
        if (!(await send({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: call.function.arguments } }] })))
          return;
      }
    }
    await send({}, finishReason);
    if (closed) return;
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion } })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
    state.events.emit('finished');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.endpoint = `http://127.0.0.1:${port}`;
  state.baseUrl = `${state.endpoint}/v1`;
  let closing: Promise<void> | undefined;
  state.close = () => {
    closing ??= new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
    return closing;
  };
  onSuiteEnd(state.close);
  return state;
}
