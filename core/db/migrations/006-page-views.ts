import { columnTypes, type QuireMigration } from './migration.js';

/**
 * Page views and visitors, human (the widget's beacon) and AI (what Quire serves to machines).
 * `page_view_days` holds daily counts; `page_visitors` one row per visitor, page and day, the
 * visitor being a hash under that day's salt (`visitor_salts`, one row: older salts are deleted,
 * so a past day's hashes can never be recomputed from an address).
 */
export const pageViews: QuireMigration = {
  name: '006-page-views',
  async up(db, dialect) {
    const { millis } = columnTypes(dialect);
    await db.schema
      .createTable('page_view_days')
      .addColumn('domain_id', 'text', (c) => c.notNull())
      .addColumn('day', millis, (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('traffic', 'text', (c) => c.notNull())
      .addColumn('n', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('page_view_days_pk', ['domain_id', 'day', 'path', 'traffic'])
      .execute();
    await db.schema.createIndex('page_view_days_by_age').on('page_view_days').columns(['day']).execute();
    await db.schema
      .createTable('page_visitors')
      .addColumn('domain_id', 'text', (c) => c.notNull())
      .addColumn('day', millis, (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('traffic', 'text', (c) => c.notNull())
      .addColumn('visitor', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('page_visitors_pk', ['domain_id', 'day', 'path', 'traffic', 'visitor'])
      .execute();
    await db.schema.createIndex('page_visitors_by_age').on('page_visitors').columns(['day']).execute();
    await db.schema
      .createTable('visitor_salts')
      .addColumn('day', millis, (c) => c.notNull().primaryKey())
      .addColumn('salt', 'text', (c) => c.notNull())
      .execute();
  },
};
