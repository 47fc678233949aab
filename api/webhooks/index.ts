export { webhooksRouter } from './routes.js';
export { webhooksOperations } from './operations.js';
