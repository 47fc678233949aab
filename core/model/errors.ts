import { APIError } from 'openai';
import { retryAfterMs } from '../http/index.js';

/**
 * A model request failed. One classification for every caller: permanent
 * (retrying the same request cannot help), transient (it may succeed later)
 * and rate-limited (transient, with the delay the provider asked for).
 * `status` is the provider's HTTP status when it answered with one.
 */
export abstract class ModelError extends Error {
  abstract readonly retryable: boolean;
  constructor(message: string, readonly status: number | undefined, options?: ErrorOptions) {
    super(message, options);
  }
}

/** Bad credentials, a malformed or oversized request, an unknown model or deployment. */
export class PermanentModelError extends ModelError {
  override name = 'PermanentModelError';
  readonly retryable = false;
  constructor(
    message: string,
    status: number | undefined,
    /** The provider's own code for the refusal (OpenAI's `error.code`), when it gave one. */
    readonly providerCode?: string,
    options?: ErrorOptions,
  ) {
    super(message, status, options);
  }
  /** The request holds more tokens than the model's context: a bound reached, not a broken request. */
  get contextTooLong(): boolean {
    return this.providerCode === 'context_length_exceeded';
  }
  /** The provider refused the key (401/403), as opposed to the request. */
  get badCredentials(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

/** The provider or the connection failed; the same request may succeed later (after `retryAfterMs` if it said). */
export class TransientModelError extends ModelError {
  override name = 'TransientModelError';
  readonly retryable = true;
  constructor(message: string, status: number | undefined, readonly retryAfterMs?: number, options?: ErrorOptions) {
    super(message, status, options);
  }
}

/** The provider is rate limiting (429); `retryAfterMs` is its `Retry-After`, undefined when it sent none. */
export class RateLimitedModelError extends TransientModelError {
  override name = 'RateLimitedModelError';
}

/** The provider sent an error event inside a stream that had started well. */
export class ModelStreamError extends TransientModelError {
  override name = 'ModelStreamError';
}

/** Reads one response header (a fetch `Headers` or a Node header record, adapted by the caller). */
export type HeaderReader = (name: string) => string | null | undefined;

/** The first line of a provider's message, bounded: enough to say what went wrong, never a whole page. */
function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 300);
}

/** Classifies an HTTP error answer; `providerMessage` is the provider's own words, when it gave any. */
export function modelErrorForStatus(status: number, header: HeaderReader, providerMessage?: string, providerCode?: string): ModelError {
  const message = `the model endpoint answered ${status}${providerMessage ? `: ${firstLine(providerMessage)}` : ''}`;
  // OpenAI and Azure send the delay in milliseconds too; it is the more precise of the two.
  const ms = header('retry-after-ms')?.trim();
  const delay = ms && /^\d+(\.\d+)?$/.test(ms) ? Math.round(Number(ms)) : retryAfterMs(header('retry-after'));
  if (status === 429) return new RateLimitedModelError(message, status, delay);
  // The statuses the openai client itself would retry: timeouts, lock conflicts, server errors.
  if (status === 408 || status === 409 || status >= 500) return new TransientModelError(message, status, delay);
  return new PermanentModelError(message, status, providerCode);
}

/**
 * A 200 answer that is not a chat completion (no choices): some OpenAI-compatible gateways answer
 * their errors so. Retryable, as a gateway's passing failure; its own message when it gave one.
 */
export function notACompletion(body: unknown): ModelError {
  const error = typeof body === 'object' && body !== null && 'error' in body ? body.error : undefined;
  const reported = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : typeof error === 'string' ? error : undefined;
  return new TransientModelError(`the model endpoint answered 200 without a chat completion or its stream${reported ? `: ${firstLine(reported)}` : ''}`, 200);
}

/** Turns whatever a model request threw (the `openai` client's errors, a broken connection) into a ModelError. */
export function toModelError(err: unknown): ModelError {
  if (err instanceof ModelError) return err;
  if (err instanceof APIError && typeof err.status === 'number') {
    const headers = err.headers;
    const reported = typeof err.error === 'object' && err.error !== null && 'message' in err.error ? String(err.error.message) : undefined;
    return modelErrorForStatus(err.status, (name) => headers?.get(name), reported, typeof err.code === 'string' ? err.code : undefined);
  }
  const reason = err instanceof Error ? (err.cause instanceof Error ? `${err.message} (${err.cause.message})` : err.message) : String(err);
  return new TransientModelError(`the model endpoint could not be reached: ${firstLine(reason)}`, undefined, undefined, { cause: err });
}
