export { writeJsonAtomic } from './atomic-file.js';
export { withFileLock } from './file-lock.js';
