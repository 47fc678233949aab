export { agentRouter } from './routes.js';
