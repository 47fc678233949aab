import assert from 'node:assert/strict';

/** A JSON request to the API at `url` with a bearer key; a body makes it `application/json`. */
export function bearerCaller(url: () => string) {
  return (method: string, path: string, key: string, body?: unknown) =>
    fetch(url() + path, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
}

/** The response is the error `code` with `status`, naming `field` among its details when given. */
export async function expectError(res: Response, status: number, code: string, field?: string): Promise<void> {
  const body = (await res.json()) as { code: string; details?: Array<{ path: string }> };
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.code, code);
  if (field) assert.ok(body.details?.some((d) => d.path === field), `details name ${field}: ${JSON.stringify(body.details)}`);
}
