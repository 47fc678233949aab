import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyKind } from './types.js';

export const ADMIN_PREFIX = 'quire_';
export const ASSISTANT_PREFIX = 'quire_dsc_';
const SECRET_BYTES = 32;

/** The kind a secret claims by its prefix; the longer prefix is matched first. */
export function kindOfSecret(secret: string): KeyKind | undefined {
  if (secret.startsWith(ASSISTANT_PREFIX)) return 'assistant';
  if (secret.startsWith(ADMIN_PREFIX)) return 'admin';
  return undefined;
}

export function newSecret(kind: KeyKind): string {
  const prefix = kind === 'assistant' ? ASSISTANT_PREFIX : ADMIN_PREFIX;
  return prefix + randomBytes(SECRET_BYTES).toString('base64url');
}

export function newKeyId(): string {
  return 'key_' + randomBytes(8).toString('hex');
}

/** The SHA-256 of a secret, in hex: what the key table stores. One-shot, as it runs on every request. */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Constant-time comparison of two hex hashes of equal length. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export function hintOf(secret: string): string {
  const prefix = kindOfSecret(secret) === 'assistant' ? ASSISTANT_PREFIX : ADMIN_PREFIX;
  return secret.slice(0, prefix.length + 4) + '…';
}

/** Ids of organisations, projects and domains: URL-safe and short. */
export const TENANT_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;
