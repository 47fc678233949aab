import { migrate } from '../../core/db/index.js';
import { UsageError } from './context.js';
import { defineCommand } from './flags.js';

/**
 * `quire migrate`: the schema brought up to date, printing the steps it applied. It opens the
 * database as it finds it (every other command's opening migrates it first, as every process does
 * at start, and would leave nothing to report); a migration Job in a deployment runs it before the
 * new release's processes start.
 */
export const migrateCommand = defineCommand({
  summary: 'Brings the database schema up to date (every process also does at start).',
  usage: [''],
  flags: {},
  opens: 'schema',
  check(positionals) {
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0] ?? ''}'`);
  },
  run: async (_positionals, _values, ctx) => {
    const target = ctx.config.database;
    const report = await migrate(ctx.database, target.dialect === 'sqlite' ? { sqliteFile: target.file } : {});
    ctx.out.write(report.applied.length > 0 ? `applied: ${report.applied.join(', ')}\n` : 'the database schema is up to date\n');
    return 0;
  },
});
