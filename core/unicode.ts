/** A surrogate without its pair: valid in a JavaScript string, refused by strict JSON readers (PostgreSQL, some model providers). */
export const LONE_SURROGATE = '[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';
const LONE = new RegExp(LONE_SURROGATE, 'g');
/** What JSON.stringify writes for a surrogate: it escapes lone ones only, and writes paired ones as they are. */
const ESCAPED_SURROGATE = /\\ud[89a-f]/i;

const wellFormedString = (_key: string, v: unknown): unknown => (typeof v === 'string' ? v.replace(LONE, '\uFFFD') : v);

/**
 * `value` as JSON text with every lone surrogate written as U+FFFD. A reader's `\ud800`, or a text
 * cut inside an emoji, would otherwise reach a provider that refuses the whole request. Nearly
 * every value has none: it costs one scan of its text, not a replacer call per value.
 */
export function wellFormedJson(value: unknown): string {
  const text = JSON.stringify(value);
  return ESCAPED_SURROGATE.test(text) ? JSON.stringify(value, wellFormedString) : text;
}

/** `text` without a surrogate cut from its pair at its end: where a cut by UTF-16 units fell inside a character. */
export function withoutCutSurrogate(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}

/** `value` with every lone surrogate in its strings as U+FFFD (the same value when it has none), for a client that serializes it itself. */
export function wellFormed<T>(value: T): T {
  const text = JSON.stringify(value);
  return ESCAPED_SURROGATE.test(text) ? (JSON.parse(JSON.stringify(value, wellFormedString)) as T) : value;
}
