// Every workflow the worker registers. The API imports definitions from the files directly.
export { pingWorkflow } from './ping.js';
export { agentJobWorkflow } from './agent-job.js';
export { indexDomainWorkflow } from './index-domain.js';
