export { adminRouter } from './routes.js';
export { operatorRouter } from './operator.js';
