import assert from 'node:assert/strict';
import Koa from 'koa';
import { errorMiddleware } from '../../../api/error-middleware.js';
import { HttpError } from '../../../api/http-error.js';
import { engineClassifier } from '../../../core/engine-errors.js';
import {
  ConflictError,
  EngineTimeoutError,
  ForbiddenError,
  InvalidRequestError,
  ModelNotConfiguredError,
  NotFoundError,
  UnauthorizedError,
  UnavailableError,
  UpstreamFailedError,
} from '../../../core/errors.js';
import { RateLimitedError } from '../../../core/limits/index.js';
import { createLogger } from '../../../core/logger.js';
import { DatabaseUnavailableError } from '../../../core/db/index.js';
import { serve } from '../../support/services.js';

/** Serves one route that throws what `thrown()` builds, through the one error middleware. */
async function answerTo(thrown: () => unknown): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const app = new Koa();
  app.silent = true;
  app.use(errorMiddleware(createLogger('silent', 'test'), engineClassifier()));
  app.use(() => {
    throw thrown();
  });
  const served = await serve(app);
  try {
    const res = await fetch(served.url);
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  } finally {
    await served.close();
  }
}

describe('errors are mapped by class', () => {
  const cases: Array<[string, () => unknown, number, string]> = [
    ['InvalidRequestError', () => new InvalidRequestError('bad', [{ path: 'prompt', message: 'empty' }]), 400, 'invalid_request'],
    ['UnauthorizedError', () => new UnauthorizedError('no key'), 401, 'unauthorized'],
    ['ForbiddenError', () => new ForbiddenError('wrong key'), 403, 'forbidden'],
    ['NotFoundError', () => new NotFoundError('job'), 404, 'not_found'],
    ['ConflictError', () => new ConflictError('archived'), 409, 'conflict'],
    ['HttpError 415', () => new HttpError(415, 'unsupported_media_type', 'json only'), 415, 'unsupported_media_type'],
    ['UpstreamFailedError', () => new UpstreamFailedError('model', 'model_failed', 'the model failed'), 502, 'model_failed'],
    ['UnavailableError', () => new UnavailableError('redis'), 503, 'unavailable'],
    ['DatabaseUnavailableError', () => new DatabaseUnavailableError({ cause: new Error('/srv/data/quire.db stayed locked') }), 503, 'unavailable'],
    ['ModelNotConfiguredError', () => new ModelNotConfiguredError(), 503, 'model_not_configured'],
    ['EngineTimeoutError', () => new EngineTimeoutError('forge'), 504, 'timeout'],
  ];
  for (const [name, thrown, status, code] of cases) {
    it(`${name} → ${status} ${code}`, async () => {
      const res = await answerTo(thrown);
      assert.equal(res.status, status);
      assert.equal(res.body.code, code);
      assert.equal(typeof res.body.error, 'string');
      if (status === 503) assert.ok(Number(res.headers.get('retry-after')) >= 1, 'a 503 says when to retry');
      else assert.equal(res.headers.get('retry-after'), null);
    });
  }

  it('details ride along on 400; 401 asks for a Bearer key', async () => {
    const bad = await answerTo(() => new InvalidRequestError('bad', [{ path: 'prompt', message: 'empty' }]));
    assert.deepEqual(bad.body.details, [{ path: 'prompt', message: 'empty' }]);
    const unauthorized = await answerTo(() => new UnauthorizedError('no key'));
    assert.equal(unauthorized.headers.get('www-authenticate'), 'Bearer');
  });

  it('a spent limit: 429 with Retry-After and the RateLimit headers', async () => {
    const limited = () => new RateLimitedError({ name: 'agent-create', subject: 'p', points: 10, window: 'hour' }, { limit: 10, remaining: 0, resetSeconds: 42 });
    const res = await answerTo(limited);
    assert.equal(res.status, 429);
    assert.equal(res.body.code, 'rate_limited');
    assert.equal(res.headers.get('retry-after'), '42');
    assert.equal(res.headers.get('ratelimit-limit'), '10');
    assert.equal(res.headers.get('ratelimit-remaining'), '0');
    assert.equal(res.headers.get('ratelimit-reset'), '42');
  });

  it('the model_not_configured message says how to configure a model', async () => {
    const res = await answerTo(() => new ModelNotConfiguredError());
    for (const name of ['QUIRE_MODEL_BASE_URL', 'QUIRE_MODEL_API_KEY', 'QUIRE_MODEL']) assert.match(String(res.body.error), new RegExp(name));
  });

  it('a busy database never shows its file path', async () => {
    const res = await answerTo(() => new DatabaseUnavailableError({ cause: new Error('/srv/data/quire.db stayed locked') }));
    assert.doesNotMatch(String(res.body.error), /srv|quire\.db/);
  });

  it('message text is never consulted: a plain Error saying "not found" or "unavailable" is a 500 internal', async () => {
    for (const message of ['project not found', 'Connection is closed.', 'UNAVAILABLE: 14 the service is unavailable', 'ECONNREFUSED']) {
      const res = await answerTo(() => new Error(message));
      assert.equal(res.status, 500, message);
      assert.deepEqual(res.body, { error: 'internal error', code: 'internal' });
    }
  });

  it('something thrown that is not an Error is a 500 internal', async () => {
    const res = await answerTo(() => 'a string');
    assert.equal(res.status, 500);
    assert.equal(res.body.code, 'internal');
  });
});
