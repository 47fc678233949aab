import { migrate } from '../../core/db/index.js';
import type { Command } from './context.js';

/**
 * `quire migrate`: the schema brought up to date. Opening the database already migrates it
 * (every process does at start), so this reports what the schema now holds; a migration Job in a
 * deployment runs it before the new release's processes start.
 */
export const migrateCommand: Command = async (_args, ctx) => {
  const target = ctx.config.database;
  const report = await migrate(ctx.database, target.dialect === 'sqlite' ? { sqliteFile: target.file } : {});
  ctx.out.write(report.applied.length > 0 ? `applied: ${report.applied.join(', ')}\n` : 'the database schema is up to date\n');
  return 0;
};
