export { deleteProjectAndAutomations, type ProjectDeletionDeps } from './delete-project.js';
