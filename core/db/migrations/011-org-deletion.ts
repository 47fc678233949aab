import type { QuireMigration } from './migration.js';

/**
 * An organisation being deleted: the time its keys were revoked and its sessions ended, while its
 * projects and domains are deleted one by one (a step can fail, Temporal down, and is repeated).
 * Once none is left the record goes and its id joins `retired_ids` (kind `organisation`).
 */
export const orgDeletion: QuireMigration = {
  name: '011-org-deletion',
  async up(db) {
    await db.schema.alterTable('orgs').addColumn('deleting_since', 'text').execute();
  },
};
