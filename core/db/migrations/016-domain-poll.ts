import type { QuireMigration } from './migration.js';

/**
 * How often a domain's docs branch is polled for a new head (minutes), for deployments no forge's
 * push hook can reach. Null: the domain is not polled.
 */
export const domainPoll: QuireMigration = {
  name: '016-domain-poll',
  async up(db) {
    await db.schema.alterTable('domains').addColumn('poll_minutes', 'integer').execute();
  },
};
