import type { QuireMigration } from './migration.js';

/** Organisations, their projects and domains, and their API keys (stored as hashes). */
export const tenants: QuireMigration = {
  name: '001-tenants',
  async up(db) {
    await db.schema
      .createTable('orgs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('limits_json', 'text')
      .execute();
    await db.schema
      .createTable('projects')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
      .addColumn('repository', 'text', (c) => c.notNull())
      .addColumn('branch', 'text', (c) => c.notNull())
      .addColumn('docs_path', 'text', (c) => c.notNull())
      .addColumn('forge', 'text', (c) => c.notNull())
      .addColumn('forge_token_env', 'text')
      .addColumn('allowed_models_json', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('projects_of_org').on('projects').columns(['org_id', 'id']).execute();
    await db.schema
      .createTable('domains')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('branch', 'text')
      .addColumn('docs_path', 'text', (c) => c.notNull())
      .addColumn('base_url', 'text', (c) => c.notNull())
      .addColumn('include_hidden', 'integer', (c) => c.notNull())
      .addColumn('support_contact', 'text')
      .addColumn('allowed_origins_json', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('domains_of_org').on('domains').columns(['org_id', 'id']).execute();
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .addColumn('hint', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema.createIndex('api_keys_of_org').on('api_keys').columns(['org_id', 'created_at', 'id']).execute();
  },
};
