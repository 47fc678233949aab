import OpenAI, { AzureOpenAI, type ClientOptions } from 'openai';
import type { Dispatcher } from 'undici';
import type { ModelEndpoint } from '../config.js';

/** What a stalled provider may cost one request: the `openai` client's own default. */
export const MODEL_TIMEOUT_MS = 600_000;

/**
 * Fetch options that route Node's `fetch` through an undici 7 dispatcher.
 * Node 20's fetch takes undici 7 dispatchers (the proxy test proves it), but
 * its typings describe its own bundled undici, whose types differ in details
 * (FormData iterator helpers); the intersection states both.
 */
type FetchOptions = NonNullable<ClientOptions['fetchOptions']>;
function withDispatcher(dispatcher: Dispatcher): FetchOptions {
  return Object.assign<FetchOptions, { dispatcher: Dispatcher }>({}, { dispatcher });
}

/**
 * The `openai` client for an endpoint: it owns the request conventions (base
 * URL, bearer or `api-key` header, Azure's deployment paths and
 * `api-version`). It never retries: inside activities Temporal does, and the
 * API answers a reader who can ask again. Connections go through `dispatcher`
 * (keep-alive, HTTP(S)_PROXY).
 */
export function openAiClient(endpoint: ModelEndpoint, dispatcher: Dispatcher): OpenAI {
  const common = { maxRetries: 0, timeout: MODEL_TIMEOUT_MS, fetchOptions: withDispatcher(dispatcher) };
  if (endpoint.provider === 'azure') {
    // The configuration requires all three for Azure; the client would refuse to start without them.
    return new AzureOpenAI({ ...common, endpoint: endpoint.baseUrl, apiKey: endpoint.apiKey, apiVersion: endpoint.apiVersion });
  }
  // Explicit values, so the client never falls back to OPENAI_* variables of the environment.
  return new OpenAI({
    ...common,
    baseURL: endpoint.baseUrl ?? 'https://api.openai.com/v1',
    apiKey: endpoint.apiKey ?? 'unused',
    organization: null,
    project: null,
  });
}
