import { hashSecret, kindOfSecret, sameHash } from './keys.js';
import type { ApiKeyRecord, TenantStore } from './types.js';

/** A key's use is written at most this often, so authenticating stays one read in the common case. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The live key whose secret this is: found by the secret's SHA-256, of the kind its prefix claims,
 * neither revoked nor expired. Records the use when the last one recorded is a minute old or more.
 */
export async function authenticateSecret(keys: Pick<TenantStore, 'findKey' | 'recordKeyUse'>, secret: string, now = new Date()): Promise<ApiKeyRecord | undefined> {
  const kind = kindOfSecret(secret);
  if (!kind) return undefined;
  const hash = hashSecret(secret);
  const key = await keys.findKey(hash);
  if (!key || !sameHash(key.hash, hash) || key.kind !== kind || key.revokedAt) return undefined;
  if (key.expiresAt && Date.parse(key.expiresAt) <= now.getTime()) return undefined;
  if (key.lastUsedAt && Date.parse(key.lastUsedAt) > now.getTime() - LAST_USED_RESOLUTION_MS) return key;
  return keys.recordKeyUse(key, now.toISOString());
}
