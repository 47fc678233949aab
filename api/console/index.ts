export { consoleRouter, type ConsoleDeps } from './router.js';
export { CONSOLE_HEADERS } from './static-routes.js';
export { CSRF_HEADER, SESSION_COOKIE } from './cookie.js';
export { consoleOperations } from './operations.js';
