import type { FormattedResponse, ResponseBodyTypes } from '@gitbeaker/requester-utils';

/** How long one GitLab request may take before it counts as unavailable (Temporal then retries). */
const REQUEST_TIMEOUT_MS = 30_000;
/** The most of an answer read: GitLab's own are a few kilobytes; a host answering gigabytes fills no worker. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** An answer's text, up to MAX_BODY_BYTES; past it the request fails (and the rest is not read). */
async function boundedText(response: Response): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) {
      await response.body.cancel().catch(() => undefined);
      throw new GitlabHttpError(502, null, `the GitLab answer passed ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A GitLab answer other than 2xx, with what classification needs and nothing of the request. */
export class GitlabHttpError extends Error {
  override name = 'GitlabHttpError';
  constructor(
    readonly status: number,
    readonly retryAfter: string | null,
    message: string,
  ) {
    super(message);
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * One request, never retried: gitbeaker's own requester retries 429 and 502 ten times, and
 * inside an activity only Temporal retries (it honours Retry-After through the classification).
 */
export async function requestOnce(endpoint: string, options: Record<string, unknown> = {}): Promise<FormattedResponse> {
  const prefix = text(options.prefixUrl) ?? '';
  const url = new URL(endpoint, prefix.endsWith('/') ? prefix : `${prefix}/`);
  url.search = text(options.searchParams) ?? '';
  const headers = options.headers && typeof options.headers === 'object' ? Object.fromEntries(Object.entries(options.headers).map(([k, v]) => [k, String(v)])) : {};
  const body = text(options.body);
  const response = await fetch(url, {
    method: text(options.method) ?? 'GET',
    headers,
    ...(body !== undefined ? { body } : {}),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    // Never followed: fetch keeps PRIVATE-TOKEN on a redirect to another host (it strips Authorization only).
    redirect: 'manual',
  });
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => undefined);
    throw new GitlabHttpError(response.status, null, `GitLab answered a redirect (${response.status}), which is not followed: set the project's GitLab URL to the API's own address`);
  }
  const raw = await boundedText(response);
  if (!response.ok) {
    let reason = raw.slice(0, 300);
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object') {
        const message = 'message' in parsed ? parsed.message : 'error' in parsed ? parsed.error : undefined;
        if (message !== undefined) reason = typeof message === 'string' ? message : JSON.stringify(message);
      }
    } catch {
      // not JSON: keep the text
    }
    throw new GitlabHttpError(response.status, response.headers.get('retry-after'), reason);
  }
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  const parsedBody: ResponseBodyTypes = isJson && raw ? JSON.parse(raw) : raw;
  return { body: parsedBody, headers: Object.fromEntries(response.headers.entries()), status: response.status };
}
