import { randomBytes } from 'node:crypto';
import { hashSecret, sameHash } from '../tenants/keys.js';

const KEY_BYTES = 32;

/** A new thread's key: the secret goes to the client once, only its SHA-256 is stored. */
export function newThreadKey(): { key: string; hash: string } {
  const key = `tk_${randomBytes(KEY_BYTES).toString('base64url')}`;
  return { key, hash: hashSecret(key) };
}

/** Whether `key` opens a thread stored with `hash`; a thread without a hash opens with no key. */
export function threadKeyMatches(hash: string | undefined, key: string | undefined): boolean {
  if (!hash || !key) return false;
  return sameHash(hash, hashSecret(key));
}
