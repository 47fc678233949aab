import assert from 'node:assert/strict';
import { ServiceError } from '@temporalio/client';
import { toHttpError } from '../../../api/error-middleware.js';

/** A gRPC status error as @grpc/grpc-js builds it (code, details, metadata), wrapped by the Temporal client. */
function temporalError(code: number, details: string): Error {
  const grpc = Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} });
  return new ServiceError('Workflow Update failed', { cause: grpc });
}

describe('engine errors in the one error middleware', () => {
  it('Temporal busy or unreachable: 503 with Retry-After', () => {
    for (const [code, name] of [
      [8, 'RESOURCE_EXHAUSTED'],
      [9, 'FAILED_PRECONDITION'],
      [4, 'DEADLINE_EXCEEDED'],
      [14, 'UNAVAILABLE'],
    ] as const) {
      const e = toHttpError(temporalError(code, name));
      assert.equal(e.status, 503, name);
      assert.equal(e.code, 'unavailable');
      assert.ok(Number(e.headers?.['Retry-After']) >= 1);
    }
  });

  it('a Temporal defect (INVALID_ARGUMENT) stays a 500', () => {
    assert.equal(toHttpError(temporalError(3, 'INVALID_ARGUMENT')).status, 500);
  });

  it('Redis down or busy, sockets and HTTP engines busy: 503', () => {
    const redisRetries = Object.assign(new Error('Reached the max retries per request limit (which is 1).'), { name: 'MaxRetriesPerRequestError' });
    const loading = Object.assign(new Error('LOADING Redis is loading the dataset in memory'), { name: 'ReplyError' });
    const reset = new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
    const qdrant = Object.assign(new Error('Service Unavailable'), { name: 'ApiError', status: 503 });
    for (const err of [redisRetries, loading, reset, qdrant, new Error('Connection is closed.')]) {
      assert.equal(toHttpError(err).status, 503, String(err));
    }
  });

  it("an engine client saying 400 about our own request is not shown as the client's fault", () => {
    const qdrant = Object.assign(new Error('Bad Request'), { name: 'ApiError', status: 400 });
    assert.equal(toHttpError(qdrant).status, 500);
  });
});
