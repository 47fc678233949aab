/**
 * One beacon per page view, for the docs team's view and visitor counts: the page's path and
 * the public assistant key, nothing else (no cookie, no identifier; the server counts visitors
 * by a hash it rotates daily). A full load is a view; so is a same-document navigation to
 * another path, where the browser tells (the Navigation API).
 */
export interface PageViewOptions {
  api: string;
  domain: string;
  assistantKey: string;
}

interface NavigationEvents {
  addEventListener(type: 'currententrychange', listener: () => void): void;
}

export function reportPageViews(options: PageViewOptions): void {
  if (typeof navigator.sendBeacon !== 'function') return;
  const url = `${options.api}/discovery/v1/analytics/${encodeURIComponent(options.domain)}/page-view`;
  let last = '';
  const report = () => {
    const path = location.pathname;
    if (path === last || path.length > 500) return;
    last = path;
    // A string body goes as text/plain: a simple request, no preflight, and it survives the page unloading.
    navigator.sendBeacon(url, JSON.stringify({ key: options.assistantKey, path }));
  };
  report();
  const navigation = (globalThis as { navigation?: NavigationEvents }).navigation;
  navigation?.addEventListener('currententrychange', report);
}
