import { retryWhen } from './retry-after.js';
import type { WidgetWords } from './words.js';

/**
 * A failure as the widget shows it: its own sentence, in the reader's language, and the server's English
 * message with its code (when the server gave one), which the panel keeps apart, marked as English.
 */
export interface Failure {
  said: string;
  detail: string | undefined;
}

/**
 * The widget's sentence for each error code of the API a reader of the assistant can meet: the JSON errors of the
 * message route and the codes of the stream's error parts. Undefined for a code it does not know.
 */
function sentence(words: WidgetWords, code: string, retryAfter: string | null): string | undefined {
  switch (code) {
    case 'rate_limited':
      return words.tooMany(retryWhen(retryAfter, words));
    case 'unavailable':
      return words.unavailable(retryWhen(retryAfter, words));
    case 'timeout':
      return words.timedOut;
    case 'payload_too_large':
      return words.tooLong;
    case 'invalid_request':
      return words.notAccepted;
    // The site's key or domain is wrong (a revoked key, a renamed domain, an admin key): nothing the reader can mend.
    case 'unauthorized':
    case 'forbidden':
    case 'not_found':
      return words.misconfigured;
    case 'internal':
      return words.failed;
    case 'model_rate_limited':
      return words.modelBusy;
    case 'model_failed':
      return words.modelFailed;
    case 'output_limit':
      return words.outputLimit;
    case 'content_filter':
      return words.contentFilter;
    case 'answer_failed':
      return words.incomplete;
    default:
      return undefined;
  }
}

const detailOf = (message: string | undefined, code: string | undefined) => (message ? (code ? `${message} (${code})` : message) : undefined);

const field = (value: unknown, name: string): string | undefined => {
  const found: unknown = typeof value === 'object' && value !== null && name in value ? (value as Record<string, unknown>)[name] : undefined;
  return typeof found === 'string' ? found : undefined;
};

/** A request refused before its stream began, from the API's JSON error (`{error, code}`); by its status when it has no code the widget knows. */
export function requestFailure(words: WidgetWords, status: number, body: unknown, retryAfter: string | null): Failure {
  const code = field(body, 'code');
  const byStatus = status === 429 ? 'rate_limited' : status === 503 ? 'unavailable' : undefined;
  const said = (code && sentence(words, code, retryAfter)) ?? (byStatus && sentence(words, byStatus, retryAfter)) ?? words.httpFailure(status);
  return { said, detail: detailOf(field(body, 'error'), code) };
}

/** An error part of the answer's stream, by the code the message metadata gave just before it. */
export function streamFailure(words: WidgetWords, code: string | undefined, errorText: string | undefined): Failure {
  return { said: (code && sentence(words, code, null)) ?? words.incomplete, detail: detailOf(errorText, code) };
}
