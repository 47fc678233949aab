import { randomBytes } from 'node:crypto';
import { hashSecret, sameHash } from '../tenants/keys.js';

const KEY_BYTES = 32;
/** Keys drawn per call to the random source: each call costs as much as drawing many keys at once. */
const KEYS_PER_DRAW = 128;

let drawn = Buffer.alloc(0);
let next = 0;

/** Fresh random bytes for one key, cut from a larger draw (as `crypto.randomUUID` does); no two keys share bytes. */
function keyBytes(): Buffer {
  if (next + KEY_BYTES > drawn.length) {
    drawn = randomBytes(KEY_BYTES * KEYS_PER_DRAW);
    next = 0;
  }
  const bytes = drawn.subarray(next, next + KEY_BYTES);
  next += KEY_BYTES;
  return bytes;
}

/** A new thread's key: the secret goes to the client once, only its SHA-256 is stored. */
export function newThreadKey(): { key: string; hash: string } {
  const key = `tk_${keyBytes().toString('base64url')}`;
  return { key, hash: hashSecret(key) };
}

/** Whether `key` opens a thread stored with `hash`; a thread without a hash opens with no key. */
export function threadKeyMatches(hash: string | undefined, key: string | undefined): boolean {
  if (!hash || !key) return false;
  return sameHash(hash, hashSecret(key));
}
