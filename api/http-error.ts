import { ConflictError, InvalidRequestError, NotFoundError, QuireError, UnavailableError, type Engine, type ErrorDetail } from '../core/errors.js';

/** An error answered with any status and code the classes of core/errors do not name (415, 405, 413…). */
export class HttpError extends QuireError {
  override name = 'HttpError';
  constructor(status: number, code: string, message: string, details?: ErrorDetail[], headers?: Record<string, string>) {
    super(status, code, message, { details, headers });
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) => new InvalidRequestError(message, details);
export const notFound = (what = 'resource') => new NotFoundError(what);
export const conflict = (message: string) => new ConflictError(message);
export const unavailable = (engine: Engine, message?: string) => new UnavailableError(engine, message);
