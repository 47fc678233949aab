import type { QuireMigration } from './migration.js';

/**
 * A project being deleted: the time its delete began. From then on no job is created for it (the
 * job store's create reads the mark in its transaction), while its schedules are deleted and its
 * active jobs archived in Temporal; then its record goes with its rows. A delete that fails there
 * (Temporal down) leaves the mark, and the same delete, repeated, finishes it.
 */
export const projectDeletion: QuireMigration = {
  name: '015-project-deletion',
  async up(db) {
    await db.schema.alterTable('projects').addColumn('deleting_since', 'text').execute();
  },
};
