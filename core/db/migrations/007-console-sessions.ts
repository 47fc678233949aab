import type { QuireMigration } from './migration.js';

/**
 * Sessions of the console: a signed-in browser holds a random token in a cookie; the database
 * keeps only its SHA-256, so every API replica knows the session and a leaked table signs no one in.
 */
export const consoleSessions: QuireMigration = {
  name: '007-console-sessions',
  async up(db) {
    await db.schema
      .createTable('console_sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
      .addColumn('key_id', 'text', (c) => c.notNull().references('api_keys.id'))
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('console_sessions_by_expiry').on('console_sessions').column('expires_at').execute();
  },
};
