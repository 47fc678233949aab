export { openDatabase, statement, bodyOf, type SqliteDatabase, type DatabaseOptions } from './sqlite.js';
export { writeJsonAtomic } from './atomic-file.js';
export { withFileLock } from './file-lock.js';
