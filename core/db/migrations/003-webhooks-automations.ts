import type { QuireMigration } from './migration.js';

/** Webhooks with their delivery log, and automations (their schedules live in Temporal). */
export const webhooksAndAutomations: QuireMigration = {
  name: '003-webhooks-automations',
  async up(db) {
    await db.schema
      .createTable('webhooks')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('events_json', 'text', (c) => c.notNull())
      .addColumn('secret_kind', 'text', (c) => c.notNull())
      .addColumn('secret_value', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('webhooks_pk', ['project_id', 'id'])
      .execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('delivery_id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('webhook_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('delivery_json', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_deliveries_newest_first').on('webhook_deliveries').columns(['project_id', 'updated_at desc']).execute();
    await db.schema.createIndex('webhook_deliveries_by_age').on('webhook_deliveries').columns(['updated_at']).execute();
    await db.schema
      .createTable('automations')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('record_json', 'text', (c) => c.notNull())
      .addColumn('last_run_json', 'text')
      .addPrimaryKeyConstraint('automations_pk', ['project_id', 'id'])
      .execute();
  },
};
