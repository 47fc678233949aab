export { agentJobWorkflow } from './workflow.js';
