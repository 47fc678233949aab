import http from 'node:http';
import https from 'node:https';
import type { PromptMessage } from './prompt.js';

/** An OpenAI-compatible endpoint: base URL (default OpenAI's), key, model. */
export interface ChatEndpoint {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  name: string;
}

/** The provider answered with an HTTP error before streaming. */
export class ModelHttpError extends Error {
  override name = 'ModelHttpError';
  constructor(readonly status: number) {
    super(`the language model answered HTTP ${status}`);
  }
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** What a stalled provider may cost: the `openai` client's default request timeout. */
const TIMEOUT_MS = 600_000;

/**
 * Starts one streamed Chat Completions request and resolves with the event
 * stream once the status is known. The assistant's one call per answer needs
 * no more than this; the `openai` client, built on `fetch` and web streams,
 * cost about a fifth of the API's CPU per answer in `bench:assistant`.
 * No retries, as before: a retry after text has streamed would repeat it.
 */
export function streamChatCompletion(endpoint: ChatEndpoint, messages: PromptMessage[], signal: AbortSignal, agents: Agents): Promise<http.IncomingMessage> {
  const url = new URL(`${(endpoint.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')}/chat/completions`);
  const body = JSON.stringify({ model: endpoint.name, messages, stream: true, stream_options: { include_usage: true } });
  const secure = url.protocol === 'https:';
  const headers: http.OutgoingHttpHeaders = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    'content-length': Buffer.byteLength(body),
    ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
  };
  return new Promise((resolve, reject) => {
    const options = { method: 'POST', headers, signal, timeout: TIMEOUT_MS, agent: secure ? agents.https : agents.http };
    const req = (secure ? https : http).request(url, options, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) return resolve(res);
      res.resume(); // the error body is the provider's; only the status is shown
      reject(new ModelHttpError(status));
    });
    req.once('timeout', () => req.destroy(new Error('the language model did not answer in time')));
    req.once('error', reject);
    req.end(body);
  });
}

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

/** Keep-alive connections to the provider, one pool per answerer. */
export function keepAliveAgents(): Agents {
  return { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
}
