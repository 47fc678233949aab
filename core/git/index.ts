export { runGit, gitEnvironment, GitCommandError, type GitOptions } from './run-git.js';
export { withoutCredentials, scrubCredentials, basicHeader, type GitCredentials } from './credentials.js';
export { docsFolderIn, docsPathProblem, DocsFolderOutsideError } from './docs-folder.js';
export { publicSource } from './public-source.js';
