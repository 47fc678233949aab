import type { QuireMigration } from './migration.js';

/**
 * The ids of deleted projects and domains, with the organisation that had them. A project's jobs,
 * pull requests, webhooks and automations, and a domain's index and analytics, are kept by the
 * bare id after the record goes: the same organisation creating the id again finds them, and
 * another organisation may not take the id (it would read them).
 */
export const retiredIds: QuireMigration = {
  name: '009-retired-ids',
  async up(db) {
    await db.schema
      .createTable('retired_ids')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('retired_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('retired_ids_pk', ['kind', 'id'])
      .execute();
  },
};
