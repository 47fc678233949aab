export { openDatabase, type Database, type DatabaseOptions, type Queries } from './database.js';
export { databaseTarget, describeTarget, type DatabaseTarget } from './target.js';
export { migrate, openMigratedDatabase, type MigrationReport } from './migrate.js';
export { DatabaseUnavailableError, classifyDatabaseError } from './errors.js';
export { MIGRATIONS, type QuireMigration, type Dialect } from './migrations/index.js';
export type { QueryObserver } from './instrumented-dialect.js';
export type * from './schema.js';
export { json, parseJson, bool, fromBool } from './values.js';
export { compiledShapes, type Slot } from './compiled-shapes.js';
