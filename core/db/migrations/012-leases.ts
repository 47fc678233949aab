import type { QuireMigration } from './migration.js';

/**
 * Who does a periodic chore of the whole deployment (the retention sweep, the stranded-job check)
 * until when: one row per chore, taken by the process whose round comes first once the last
 * holder's time is up, so replicas do not each repeat it.
 */
export const leases: QuireMigration = {
  name: '012-leases',
  async up(db) {
    await db.schema
      .createTable('leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  },
};
