import type { QuireMigration } from './migration.js';

/**
 * A click was counted by updating its search's row, so a click whose batch was written before its
 * search's (another API replica flushed first) matched nothing and was lost. Clicks are now kept on
 * their own, by their search's id, and joined to their searches when a report reads them: the order
 * the two arrive in no longer matters. The counter on the search and the copy of its query go.
 */
export const clicksBySearch: QuireMigration = {
  name: '010-clicks-by-search',
  async up(db) {
    await db.schema.dropIndex('clicks_by_time').execute();
    await db.schema.alterTable('clicks').dropColumn('query').execute();
    await db.schema.alterTable('searches').dropColumn('clicks').execute();
    await db.schema.createIndex('clicks_by_search').on('clicks').columns(['domain_id', 'search_id']).execute();
  },
};
