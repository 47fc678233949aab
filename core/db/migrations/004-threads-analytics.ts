import { columnTypes, type QuireMigration } from './migration.js';

/**
 * Assistant threads and what the assistant and the search API record for analytics. Each index
 * serves one query of the analytics API (bench/analytics.ts measures them); `answer_days` holds
 * daily counts written with the answers, so counts over a month read a few hundred rows.
 */
export const threadsAndAnalytics: QuireMigration = {
  name: '004-threads-analytics',
  async up(db, dialect) {
    const { millis } = columnTypes(dialect);
    await db.schema
      .createTable('threads')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('thread_id', 'text', (c) => c.notNull())
      .addColumn('domain_id', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('threads_pk', ['org_id', 'thread_id'])
      .execute();
    await db.schema.createIndex('threads_by_age').on('threads').columns(['updated_at']).execute();
    await db.schema
      .createTable('thread_exchanges')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('thread_id', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('exchange_json', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('thread_exchanges_pk', ['org_id', 'thread_id', 'position'])
      .execute();

    await db.schema
      .createTable('answers')
      .addColumn('domain_id', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('at', millis, (c) => c.notNull())
      .addColumn('thread_id', 'text')
      .addColumn('caller', 'text', (c) => c.notNull())
      .addColumn('surface', 'text', (c) => c.notNull())
      .addColumn('resolution', 'text', (c) => c.notNull())
      .addColumn('category', 'text')
      .addColumn('answer_json', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('answers_pk', ['domain_id', 'id'])
      .execute();
    await db.schema.createIndex('answers_newest_first').on('answers').columns(['domain_id', 'at desc', 'id desc']).execute();
    await db.schema.createIndex('answers_by_caller').on('answers').columns(['domain_id', 'at', 'caller', 'surface', 'resolution']).execute();
    await db.schema.createIndex('answers_by_category').on('answers').columns(['domain_id', 'at', 'category', 'resolution']).execute();
    await db.schema.createIndex('answers_unanswered').on('answers').columns(['domain_id', 'resolution', 'at']).execute();
    await db.schema.createIndex('answers_of_thread').on('answers').columns(['domain_id', 'thread_id', 'at']).execute();
    await db.schema.createIndex('answers_by_age').on('answers').columns(['at']).execute();
    await db.schema
      .createTable('answer_days')
      .addColumn('domain_id', 'text', (c) => c.notNull())
      .addColumn('day', millis, (c) => c.notNull())
      .addColumn('caller', 'text', (c) => c.notNull())
      .addColumn('surface', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('resolution', 'text', (c) => c.notNull())
      .addColumn('n', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('answer_days_pk', ['domain_id', 'day', 'caller', 'surface', 'category', 'resolution'])
      .execute();
    await db.schema
      .createTable('searches')
      .addColumn('domain_id', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('at', millis, (c) => c.notNull())
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .addColumn('caller', 'text', (c) => c.notNull())
      .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('searches_pk', ['domain_id', 'id'])
      .execute();
    await db.schema.createIndex('searches_by_time').on('searches').columns(['domain_id', 'at']).execute();
    await db.schema.createIndex('searches_by_age').on('searches').columns(['at']).execute();
    await db.schema
      .createTable('clicks')
      .addColumn('domain_id', 'text', (c) => c.notNull())
      .addColumn('search_id', 'text', (c) => c.notNull())
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('at', millis, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('clicks_by_query').on('clicks').columns(['domain_id', 'query', 'at']).execute();
    await db.schema.createIndex('clicks_by_age').on('clicks').columns(['at']).execute();
    await db.schema
      .createTable('feedback')
      .addColumn('domain_id', 'text', (c) => c.notNull())
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('thread_id', 'text', (c) => c.notNull())
      .addColumn('at', millis, (c) => c.notNull())
      .addColumn('helpful', 'integer', (c) => c.notNull())
      .addColumn('comment', 'text')
      .addPrimaryKeyConstraint('feedback_pk', ['domain_id', 'message_id'])
      .execute();
    await db.schema.createIndex('feedback_newest_first').on('feedback').columns(['domain_id', 'at desc', 'message_id desc']).execute();
    await db.schema.createIndex('feedback_by_age').on('feedback').columns(['at']).execute();
    await db.schema
      .createTable('gap_jobs')
      .addColumn('domain_id', 'text', (c) => c.notNull())
      .addColumn('gap_id', 'text', (c) => c.notNull())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('job_id', 'text', (c) => c.notNull())
      .addColumn('at', millis, (c) => c.notNull())
      .addPrimaryKeyConstraint('gap_jobs_pk', ['domain_id', 'job_id'])
      .execute();
  },
};
