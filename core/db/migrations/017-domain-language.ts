import type { QuireMigration } from './migration.js';

/**
 * The language a domain's docs are written in (a BCP 47 tag, `de`), whose stemmer cuts its pages'
 * words and its readers' questions. Null: English, as every domain was before.
 */
export const domainLanguage: QuireMigration = {
  name: '017-domain-language',
  async up(db) {
    await db.schema.alterTable('domains').addColumn('language', 'text').execute();
  },
};
