export { automationsRouter } from './routes.js';
