import type { Domain, TenantStore } from '../../core/tenants/index.js';

export { pageUrl } from '../assistant/citations.js';

/**
 * The caller's organisation's domain, or undefined: another organisation's
 * domain is answered exactly like a missing one, so its existence never shows.
 */
export async function findOwnDomain(tenants: TenantStore, orgId: string, domainId: string): Promise<Domain | undefined> {
  const domain = await tenants.getDomain(domainId);
  return domain && domain.orgId === orgId ? domain : undefined;
}

/**
 * A page path from what a caller gives: a path (`/guides/webhooks`) or a full
 * URL of the site (`https://docs.example.com/guides/webhooks#verify`);
 * undefined for a URL of another site, whose path says nothing of this one.
 */
export function pagePathFrom(baseUrl: string, given: string): string | undefined {
  if (!/^https?:\/\//i.test(given)) return given;
  const url = new URL(given);
  const site = new URL(baseUrl);
  if (url.host !== site.host) return undefined;
  const prefix = site.pathname.replace(/\/+$/, '');
  const path = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname;
  return decodeURIComponent(path) || '/';
}
