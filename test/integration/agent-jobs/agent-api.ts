import type { JobView } from '../../../core/jobs/index.js';

export interface ApiReply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls the API over HTTP like a client would; `key` null sends no Authorization header. */
export async function call<T = Record<string, unknown>>(
  url: string,
  method: string,
  key: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiReply<T>> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  // The API's JSON is what the test asserts on; the type names what the test expects to read.
  const parsed: T = text ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, body: parsed };
}

/** Polls GET until `done` holds for the job, or fails after `timeoutMs`. */
export async function pollJob(
  base: string,
  key: string,
  projectId: string,
  jobId: string,
  done: (job: JobView) => boolean,
  timeoutMs = 30_000,
): Promise<JobView> {
  const until = Date.now() + timeoutMs;
  let last: JobView | undefined;
  while (Date.now() < until) {
    const reply = await call<JobView>(`${base}/v2/agent/${projectId}/job/${jobId}`, 'GET', key);
    if (reply.status !== 200) throw new Error(`GET job answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    last = reply.body;
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${jobId} did not reach the expected state; last: ${JSON.stringify(last)}`);
}
