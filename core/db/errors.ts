import { InvalidRequestError, UnavailableError } from '../errors.js';

/**
 * The database could not do its part right now: down, unreachable, out of connections, or locked
 * by another process for longer than a write waits. Nothing was written; the caller may retry (the
 * API answers 503 with Retry-After). Every other database error is a bug and stays what it is.
 */
export class DatabaseUnavailableError extends UnavailableError {
  override name = 'DatabaseUnavailableError';
  constructor(options: { cause?: unknown } = {}) {
    super('database', 'the database is unavailable; try again shortly', { retryAfterSeconds: 2, ...options });
  }
}

const NODE_NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATE classes that mean "not now" rather than "wrong": 08 connection exceptions,
 * 53 insufficient resources, 57P0x operator intervention (shutdown, cannot connect now), 40001/40P01
 * serialization failure and deadlock (the transaction may simply be run again), 25006 a read-only
 * transaction (a standby during a failover, before the new primary takes connections).
 */
function isTransientPostgres(code: string): boolean {
  return code.startsWith('08') || code.startsWith('53') || /^57P0[1-4]$/.test(code) || code === '40001' || code === '40P01' || code === '25006';
}

/**
 * SQLite result codes of a database that is locked by another process, full, or failing on disk:
 * a later attempt may succeed. Every process reads them here (the stores' errors, and the engine
 * classifier's for SQLite errors raised outside a store).
 */
export const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|PROTOCOL|READONLY_DBMOVED)/;

/** Whether a driver error means the database is unavailable for now (classified once, here). */
export function isUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = 'code' in err && typeof err.code === 'string' ? err.code : '';
  if (SQLITE_UNAVAILABLE.test(code)) return true;
  if (NODE_NETWORK.has(code)) return true;
  if (/^[0-9A-Z]{5}$/.test(code) && isTransientPostgres(code)) return true;
  // node-postgres reports a pool or connection that gave up without a code.
  return /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(err.message);
}

/**
 * PostgreSQL refused a value the statement carried: a data exception (SQLSTATE class 22: a NUL
 * in text, a number out of range, a malformed value) or a value too large for an index (54000).
 * The values come from the request being served, so it is answered 400, never 500; SQLite takes
 * such values as they are. The SQLSTATE is named, never the value.
 */
export class DatabaseRejectedValueError extends InvalidRequestError {
  override name = 'DatabaseRejectedValueError';
  constructor(readonly sqlState: string, options: { cause: unknown }) {
    super(`the database refused a value of this request (SQLSTATE ${sqlState}): check for out-of-range numbers, control characters or over-long text`);
    this.cause = options.cause;
  }
}

const rejectedValue = (code: string) => /^22[0-9A-Z]{3}$/.test(code) || code === '54000';

/**
 * The error callers see: unavailability as its own class (the driver's error as its cause), a
 * value PostgreSQL refused as a 400, the rest unchanged.
 */
export function classifyDatabaseError(err: unknown): unknown {
  if (err instanceof DatabaseUnavailableError || err instanceof DatabaseRejectedValueError) return err;
  if (isUnavailable(err)) return new DatabaseUnavailableError({ cause: err });
  const code = err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : '';
  if (rejectedValue(code)) return new DatabaseRejectedValueError(code, { cause: err });
  return err;
}
