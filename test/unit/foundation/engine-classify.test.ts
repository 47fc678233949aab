import assert from 'node:assert/strict';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import { NamespaceNotFoundError, ServiceError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import Database from 'better-sqlite3';
import { Redis, ReplyError } from 'ioredis';
import { APIConnectionError } from 'openai';
import { QdrantClientUnexpectedResponseError } from '@qdrant/js-client-rest';
import { ApiError as QdrantApiError } from '@qdrant/openapi-typescript-fetch';
import {
  classifyModel,
  classifyNetwork,
  classifyQdrant,
  classifyRedis,
  classifySqlite,
  classifyTemporal,
  engineClassifier,
} from '../../../core/engine-errors.js';
import { classifyDatabaseError, DatabaseRejectedValueError, DatabaseUnavailableError } from '../../../core/db/errors.js';
import { QuireError } from '../../../core/errors.js';
import { PermanentModelError, TransientModelError } from '../../../core/model/index.js';

/** A gRPC status error as @grpc/grpc-js builds it (code, details, metadata), wrapped by the Temporal client. */
function temporalError(code: number, details: string): Error {
  const grpc = Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} });
  return new ServiceError('Workflow Update failed', { cause: grpc });
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const expect503 = (e: QuireError | undefined, engine: string) => {
  assert.ok(e, `${engine}: classified`);
  assert.equal(e.status, 503);
  assert.equal(e.code, 'unavailable');
  assert.ok((e.retryAfterSeconds ?? 0) >= 1);
};

describe('each engine classifies its own failures', () => {
  it('Temporal: busy or unreachable gRPC statuses are 503; a refusal (INVALID_ARGUMENT, NOT_FOUND, PERMISSION_DENIED) is 502 with its code', () => {
    for (const [code, name] of [
      [8, 'RESOURCE_EXHAUSTED'],
      [9, 'FAILED_PRECONDITION'],
      [4, 'DEADLINE_EXCEEDED'],
      [14, 'UNAVAILABLE'],
    ] as const) {
      expect503(classifyTemporal(temporalError(code, name)), name);
    }
    for (const [code, name] of [
      [3, 'INVALID_ARGUMENT'],
      [5, 'NOT_FOUND'],
      [7, 'PERMISSION_DENIED'],
    ] as const) {
      const refused = classifyTemporal(temporalError(code, name));
      assert.equal(refused?.status, 502, name);
      assert.equal(refused?.code, 'workflow_engine_refused', name);
      assert.ok(!refused?.message.includes(name), 'the client is told the status number, not the server\'s text');
    }
    const missing = classifyTemporal(new NamespaceNotFoundError('quire'));
    assert.equal(missing?.status, 502);
    assert.equal(missing?.code, 'workflow_engine_refused');
    expect503(classifyTemporal(new ServiceError('Failed to connect to Temporal server')), 'no answer');
    // An update the workflow failed (its recording activity gave up, say): nothing accepted, retry later.
    const cause = new ActivityFailure('activity failed', 'recordJob', '1', undefined, undefined, ApplicationFailure.create({ message: 'database down', type: 'DatabaseUnavailableError' }));
    expect503(classifyTemporal(new WorkflowUpdateFailedError('Workflow Update failed', cause)), 'update failed');
  });

  it('SQLite: a real SQLITE_BUSY from a second connection is 503; a constraint violation is not classified', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-classify-'));
    try {
      const file = path.join(dir, 'busy.db');
      const holder = new Database(file);
      holder.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
      const other = new Database(file, { timeout: 0 });
      holder.exec('BEGIN IMMEDIATE');
      let busy: unknown;
      try {
        other.exec('INSERT INTO t VALUES (1)');
      } catch (err) {
        busy = err;
      }
      holder.exec('ROLLBACK');
      expect503(classifySqlite(busy), 'sqlite busy');
      holder.exec('INSERT INTO t VALUES (1)');
      let duplicate: unknown;
      try {
        holder.exec('INSERT INTO t VALUES (1)');
      } catch (err) {
        duplicate = err;
      }
      assert.ok(duplicate instanceof Database.SqliteError);
      assert.equal(classifySqlite(duplicate), undefined);
      holder.close();
      other.close();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('Redis: a command on a client that cannot connect is 503, a busy reply is 503, another reply is not classified', async () => {
    const redis = new Redis({ port: await closedPort(), host: '127.0.0.1', lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => undefined);
    const err = await redis.get('k').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect503(classifyRedis(redis)(err), 'redis down');
    redis.disconnect();
    const ready = { status: 'ready' };
    expect503(classifyRedis(ready)(new ReplyError('LOADING Redis is loading the dataset in memory')), 'LOADING');
    assert.equal(classifyRedis(ready)(new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value')), undefined);
    assert.equal(classifyRedis(ready)(new Error('anything')), undefined);
  });

  it('network: a refused connection under fetch is 503, found down the cause chain', async () => {
    const err = await fetch(`http://127.0.0.1:${await closedPort()}/`).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.equal(classifyNetwork(err), undefined, 'the TypeError itself names no code');
    expect503(engineClassifier()(err), 'fetch refused');
  });

  it('the model: unreachable or retryable is 503, a refusal is 502 model_failed', () => {
    expect503(classifyModel(new APIConnectionError({ message: 'Connection error.' })), 'openai connection');
    expect503(classifyModel(new TransientModelError('the model endpoint answered 500', 500)), 'transient');
    const refused = classifyModel(new PermanentModelError('the model endpoint answered 400: bad', 400));
    assert.equal(refused?.status, 502);
    assert.equal(refused?.code, 'model_failed');
    assert.doesNotMatch(refused?.message ?? '', /bad/, "the provider's words stay in the log");
  });

  it("Qdrant: 429 and 5xx answers are 503; any other answer is Qdrant refusing, 502 search_engine_refused without its words", () => {
    const answered = (status: number, statusText: string) => new QdrantApiError({ headers: new Headers(), url: 'http://qdrant/collections/docs/points/query', status, statusText, data: { status: { error: 'Collection `docs` doesn\'t exist!' } } });
    expect503(classifyQdrant(answered(503, 'Service Unavailable')), 'qdrant 503');
    expect503(classifyQdrant(answered(429, 'Too Many Requests')), 'qdrant 429');
    for (const status of [400, 401, 404]) {
      const refused = classifyQdrant(answered(status, 'Not Found'));
      assert.equal(refused?.status, 502, `qdrant ${status}`);
      assert.equal(refused?.code, 'search_engine_refused');
      assert.doesNotMatch(refused?.message ?? '', /Collection/, "Qdrant's words stay in the log");
    }
    assert.equal(classifyQdrant(new QdrantClientUnexpectedResponseError('Unexpected Response: 418'))?.code, 'search_engine_refused');
    assert.equal(classifyQdrant(Object.assign(new Error('Bad Request'), { name: 'ApiError', status: 400 })), undefined, 'only its client\'s classes');
  });
});

describe("the stores' database errors", () => {
  const coded = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

  it('a full or failing SQLite disk and a PostgreSQL standby (read-only transaction) are unavailable, as a lock and a lost connection are', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_CANTOPEN', '25006', '08006', '57P01', '40001']) {
      assert.ok(classifyDatabaseError(coded(code)) instanceof DatabaseUnavailableError, code);
    }
  });

  it('a constraint or a syntax error stays what it is; a value PostgreSQL refuses is a 400 naming its SQLSTATE', () => {
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', '23505', '42601']) {
      const err = coded(code);
      assert.equal(classifyDatabaseError(err), err, code);
    }
    const rejected = classifyDatabaseError(coded('22021'));
    assert.ok(rejected instanceof DatabaseRejectedValueError);
    assert.match(rejected.message, /SQLSTATE 22021/);
  });
});
