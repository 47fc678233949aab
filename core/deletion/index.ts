export { deleteProjectAndAutomations, type ProjectDeletionDeps } from './delete-project.js';
export { deleteOrganisation, OrgDeletionIncompleteError, type OrgDeletion } from './delete-organisation.js';
