import type { ApiKeysTable } from '../db/schema.js';
import type { ApiKeyRecord, KeyKind } from './types.js';

/** A key as the stores hand it out, from its row in `api_keys`. */
export const keyOf = (row: ApiKeysTable): ApiKeyRecord => ({
  id: row.id,
  orgId: row.org_id,
  kind: row.kind as KeyKind,
  hash: row.hash,
  hint: row.hint,
  createdAt: row.created_at,
  ...(row.revoked_at ? { revokedAt: row.revoked_at } : {}),
  ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
  ...(row.last_used_at ? { lastUsedAt: row.last_used_at } : {}),
});
