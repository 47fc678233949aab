// Every workflow the worker registers. Callers start and message them through core/contracts, by name.
export { pingWorkflow } from './ping.js';
export { agentJobWorkflow } from './agent-job/index.js';
export { indexDomainWorkflow } from './index-domain.js';
export { automationRunWorkflow } from './automation-run.js';
export { domainPollWorkflow } from './domain-poll.js';
export { webhookDeliveryWorkflow } from './webhook-delivery.js';
export { reconcileJobsWorkflow } from './job-reconcile.js';
