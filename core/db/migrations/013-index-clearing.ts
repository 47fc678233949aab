import { sql } from 'kysely';
import type { QuireMigration } from './migration.js';

/**
 * A deleted domain's index (its files or Qdrant points, its checkout) is removed after its record
 * goes, in steps that cannot share the record's transaction: `clearing_since` is set with the
 * retired id and cleared once the index is gone, so a step that failed is finished by repeating the
 * delete, and the id cannot be created again meanwhile. Domains deleted before this step, by an
 * organisation still here, kept their index: they are marked too, and their next delete removes it.
 */
export const indexClearing: QuireMigration = {
  name: '013-index-clearing',
  async up(db) {
    await db.schema.alterTable('retired_ids').addColumn('clearing_since', 'text').execute();
    await sql`update retired_ids set clearing_since = retired_at where kind = 'domain' and org_id in (select id from orgs)`.execute(db);
  },
};
