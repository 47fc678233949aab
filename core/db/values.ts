import { LONE_SURROGATE } from '../unicode.js';

const UNSTORABLE = new RegExp(`\\0|${LONE_SURROGATE}`, 'g');
/** A string as every JSON reader of both dialects takes it: a lone surrogate or NUL becomes U+FFFD. */
const storable = (_key: string, v: unknown): unknown => (typeof v === 'string' ? v.replace(UNSTORABLE, '\uFFFD') : v);
/** What JSON.stringify writes for NUL and for a surrogate (lone ones only: paired ones it writes as they are). */
const ESCAPED = /\\u(?:0000|d[89a-f])/;

/**
 * Nested values are JSON text in both dialects. Strings are made storable first: PostgreSQL's
 * JSON reader refuses the `\ud800` and `\u0000` escapes JSON.stringify writes for a lone surrogate
 * and NUL (a reader's question, a model's answer), and a query that reads the column as JSON would
 * fail on every row after such a one.
 */
export function json(value: unknown): string {
  const text = JSON.stringify(value);
  // Nearly every value has neither: it pays one scan of its text, not a replacer call per value.
  return ESCAPED.test(text) ? JSON.stringify(value, storable) : text;
}

/** A JSON column read back; the schema that wrote it is the one that reads it. */
export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** Booleans are 0/1 in both dialects. */
export function bool(value: boolean): number {
  return value ? 1 : 0;
}

export function fromBool(value: number): boolean {
  return value !== 0;
}
