import fs from 'node:fs/promises';
import Router from '@koa/router';
import { WIDGET_BUNDLE_PATH } from '../../core/widget-bundle.js';
import { HttpError } from '../http-error.js';
import type { ApiServices } from '../services.js';
import { demoPage } from './demo-page.js';

export interface WidgetDeps {
  /** The built bundle; default: where `npm run build` writes it. */
  bundlePath?: string;
}

/** The widget routes serve a built file and a page; the page's tag starts with the configured public URL. */
export type WidgetRouterDeps = Pick<ApiServices, 'config'>;

/**
 * `GET /widget.js`: the embeddable assistant, built by `npm run build`, for
 * any site's script tag (no key needed to load it; CORS in browser-routes).
 * `GET /widget/demo`: a page that shows it.
 */
export function widgetRouter(services: WidgetRouterDeps, deps: WidgetDeps = {}): Router {
  const page = demoPage(services.config.console.publicUrl);
  const bundlePath = deps.bundlePath ?? WIDGET_BUNDLE_PATH;
  let bundle: Buffer | undefined;
  const router = new Router();
  router.get('/widget.js', async (ctx) => {
    bundle ??= await fs.readFile(bundlePath).catch(() => undefined);
    if (!bundle) throw new HttpError(404, 'not_found', 'widget.js is not built; run npm run build');
    ctx.set({
      'Cache-Control': 'public, max-age=300',
      'X-Content-Type-Options': 'nosniff',
      // Pages that isolate themselves (COEP) may still load it.
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = bundle;
  });
  router.get('/widget/demo', (ctx) => {
    ctx.set({ 'Cache-Control': 'no-cache', 'Referrer-Policy': 'no-referrer' });
    ctx.type = 'html';
    ctx.body = page;
  });
  return router;
}
