import type { ListCursor } from './types.js';

export class InvalidAnalyticsCursorError extends Error {
  override name = 'InvalidAnalyticsCursorError';
}

/** An opaque cursor: the last item's time and id. */
export function encodeListCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

export function decodeListCursor(text: string): ListCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    // Ours hold a time and an id: no control characters (PostgreSQL refuses NUL, SQLite would find nothing).
    if (Array.isArray(parsed) && Number.isSafeInteger(parsed[0]) && typeof parsed[1] === 'string' && !/[\u0000-\u001f]/.test(parsed[1])) return { at: Number(parsed[0]), id: parsed[1] };
  } catch {
    // fall through: any undecodable cursor is the client's mistake
  }
  throw new InvalidAnalyticsCursorError('cursor is not one this API returned');
}
