export { agentV1Router } from './routes.js';
