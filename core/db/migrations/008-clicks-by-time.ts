import type { QuireMigration } from './migration.js';

/**
 * Clicks were indexed by their search's query text: PostgreSQL's B-tree takes at most about 2,700
 * bytes a row, so a click on a long search (2,000 characters of CJK text is 6,000 bytes) could not
 * be stored, and with it went the analytics batch it came in. The report that reads clicks by
 * query reads one domain's period first: the index is by domain and time instead.
 */
export const clicksByTime: QuireMigration = {
  name: '008-clicks-by-time',
  async up(db) {
    await db.schema.dropIndex('clicks_by_query').execute();
    await db.schema.createIndex('clicks_by_time').on('clicks').columns(['domain_id', 'at']).execute();
  },
};
