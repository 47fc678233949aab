export { deleteProjectAndJobs, type ProjectDeletionDeps } from './delete-project.js';
export { clearDomainIndex, deleteDomainAndIndex, type DomainDeletionDeps } from './delete-domain.js';
export { deleteOrganisation, OrgDeletionIncompleteError, type OrgDeletion, type OrgDeletionDeps } from './delete-organisation.js';
