import Router from '@koa/router';
import { CONSOLE_DIST_PATH } from '../../core/console-bundle.js';
import { addSessionRoutes, type SessionRoutesDeps } from './session-routes.js';
import { addStaticRoutes } from './static-routes.js';

export interface ConsoleDeps {
  /** The built console; default: where `npm run build` writes it. */
  consoleDir?: string;
}

/** What the console uses: its session routes' slice (the built files need no service). */
export type ConsoleRouterDeps = SessionRoutesDeps;

/** The console at `/console`: its session API, then its built files (the session path is matched first). */
export function consoleRouter(services: ConsoleRouterDeps, deps: ConsoleDeps = {}): Router {
  const router = new Router();
  addSessionRoutes(router, services);
  addStaticRoutes(router, deps.consoleDir ?? CONSOLE_DIST_PATH);
  return router;
}
