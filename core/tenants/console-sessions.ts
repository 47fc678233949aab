import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../db/index.js';
import { keyOf } from './key-rows.js';
import type { ConsoleSession, TenantStore } from './types.js';

const TOKEN_BYTES = 32;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The console's sessions, kept with the keys they come from: a session is found only while its
 * admin key is live (neither revoked nor expired), so revoking the key signs its browsers out.
 */
export function consoleSessionQueries(database: Database): Pick<TenantStore, 'openConsoleSession' | 'findConsoleSession' | 'endConsoleSession'> {
  const q = database.queries;
  return {
    openConsoleSession: async (key, lifetimeMs) => {
      const now = new Date();
      const until = new Date(now.getTime() + lifetimeMs).toISOString();
      // A session never outlives the key it was opened with.
      const expiresAt = key.expiresAt && key.expiresAt < until ? key.expiresAt : until;
      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      const session: ConsoleSession = { orgId: key.orgId, key, csrfToken: randomBytes(TOKEN_BYTES).toString('base64url'), createdAt: now.toISOString(), expiresAt };
      await database.transaction(async (trx) => {
        // Sign-ins sweep what has expired, so the table holds live sessions and a few stale ones at most.
        await trx.deleteFrom('console_sessions').where('expires_at', '<=', session.createdAt).execute();
        await trx
          .insertInto('console_sessions')
          .values({ token_hash: hashToken(token), org_id: key.orgId, key_id: key.id, csrf_token: session.csrfToken, created_at: session.createdAt, expires_at: expiresAt })
          .execute();
      });
      return { token, session };
    },
    findConsoleSession: async (token) => {
      const now = new Date().toISOString();
      const row = await q
        .selectFrom('console_sessions as s')
        .innerJoin('api_keys as k', 'k.id', 's.key_id')
        .selectAll('k')
        .select(['s.csrf_token', 's.created_at as session_created_at', 's.expires_at as session_expires_at'])
        .where('s.token_hash', '=', hashToken(token))
        .where('s.expires_at', '>', now)
        .where('k.revoked_at', 'is', null)
        .where((eb) => eb.or([eb('k.expires_at', 'is', null), eb('k.expires_at', '>', now)]))
        .executeTakeFirst();
      if (!row || row.kind !== 'admin') return undefined;
      return { orgId: row.org_id, key: keyOf(row), csrfToken: row.csrf_token, createdAt: row.session_created_at, expiresAt: row.session_expires_at };
    },
    endConsoleSession: async (token) => {
      await q.deleteFrom('console_sessions').where('token_hash', '=', hashToken(token)).execute();
    },
  };
}
