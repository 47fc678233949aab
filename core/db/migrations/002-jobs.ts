import type { QuireMigration } from './migration.js';

/** Agent jobs, the prompts sent to them (kept out of workflow history), and their ordered event logs. */
export const jobs: QuireMigration = {
  name: '002-jobs',
  async up(db) {
    await db.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('archived_at', 'text')
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('record_json', 'text', (c) => c.notNull())
      .execute();
    // The project's listing, newest first; and what retention deletes next.
    await db.schema.createIndex('jobs_newest_first').on('jobs').columns(['project_id', 'created_at desc', 'id desc']).execute();
    await db.schema.createIndex('jobs_by_archive').on('jobs').columns(['archived_at']).execute();
    await db.schema
      .createTable('job_messages')
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('job_id', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('prompt', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('job_messages_pk', ['job_id', 'id'])
      .execute();
    await db.schema
      .createTable('job_events')
      .addColumn('job_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('time', 'text', (c) => c.notNull())
      .addColumn('data_json', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('job_events_pk', ['job_id', 'seq'])
      .addUniqueConstraint('job_events_key', ['job_id', 'key'])
      .execute();
  },
};
