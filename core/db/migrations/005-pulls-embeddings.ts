import { columnTypes, type QuireMigration } from './migration.js';

/** Pull requests of the embedded local forge, and the vectors already paid for (the embedding cache). */
export const pullsAndEmbeddings: QuireMigration = {
  name: '005-pulls-embeddings',
  async up(db, dialect) {
    await db.schema
      .createTable('pulls')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('job_id', 'text', (c) => c.notNull())
      .addColumn('branch', 'text', (c) => c.notNull())
      .addColumn('base', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('draft', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('comments_json', 'text', (c) => c.notNull())
      .addColumn('view_token_hash', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('pulls_pk', ['project_id', 'number'])
      .execute();
    await db.schema.createIndex('pulls_by_branch').on('pulls').columns(['project_id', 'branch', 'state']).execute();
    await db.schema
      .createTable('embeddings')
      .addColumn('text_hash', 'text', (c) => c.notNull())
      .addColumn('embedder', 'text', (c) => c.notNull())
      .addColumn('vector', columnTypes(dialect).bytes, (c) => c.notNull())
      .addPrimaryKeyConstraint('embeddings_pk', ['text_hash', 'embedder'])
      .execute();
  },
};
