// The workflows' contracts: what callers (API, CLI, worker) and workflows share, with no workflow
// or activity code behind it. One module per workflow.
export * from './agent-job.js';
export * from './automation-run.js';
export * from './domain-poll.js';
export * from './index-domain.js';
export * from './job-reconcile.js';
export * from './ping.js';
export { JOB_STATUS, PROJECT_ID, DOMAIN_ID, SEARCH_ATTRIBUTES } from './search-attributes.js';
export * from './webhook-delivery.js';
