import type { Database } from './database.js';

/**
 * Takes the lease `name` for `holder` until `now + ttlMs` when nobody holds it, its holder's time
 * is up, or `holder` holds it already (a renewal); true when `holder` holds it afterwards. One
 * statement on both dialects: two processes asking at once cannot both win.
 */
export async function takeLease(database: Database, name: string, holder: string, ttlMs: number, now: number): Promise<boolean> {
  const expiresAt = new Date(now + ttlMs).toISOString();
  const taken = await database.queries
    .insertInto('leases')
    .values({ name, holder, expires_at: expiresAt })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, expires_at: expiresAt })
        .where((eb) => eb.or([eb('leases.expires_at', '<=', new Date(now).toISOString()), eb('leases.holder', '=', holder)])),
    )
    .returning('holder')
    .executeTakeFirst();
  return taken?.holder === holder;
}
