import { hashSecret, hintOf, newKeyId, newSecret, TENANT_ID } from './keys.js';
import {
  type ApiKeyRecord,
  type Domain,
  type DomainInput,
  type KeyKind,
  type Organisation,
  type OrgLimits,
  type Project,
  type ProjectInput,
  TenantConflictError,
  TenantExistsError,
} from './types.js';

/** The rules both store implementations share: ids, timestamps, key material. */

export function checkTenantId(kind: string, id: string): void {
  if (!TENANT_ID.test(id))
    throw new TenantConflictError(
      `invalid ${kind} id '${id}': use 1-63 lower-case letters, digits and dashes, starting with a letter or digit`,
    );
}

export function newOrg(id: string, limits: OrgLimits | undefined, now = new Date()): Organisation {
  checkTenantId('organisation', id);
  return { id, createdAt: now.toISOString(), ...(limits ? { limits } : {}) };
}

export function mergeProject(input: ProjectInput, existing: Project | undefined, now = new Date()): Project {
  checkTenantId('project', input.id);
  // Another organisation's id: refused as any taken id is, naming nothing of theirs.
  if (existing && existing.orgId !== input.orgId) throw new TenantExistsError('project', input.id);
  return { ...input, createdAt: existing?.createdAt ?? now.toISOString(), updatedAt: now.toISOString() };
}

/**
 * The origin a browser sends for pages of `url` (`https://docs.acme.com`), so
 * an allowed origin compares equal to an `Origin` header whatever path or
 * trailing slash the operator wrote.
 */
export function webOrigin(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
    throw new TenantConflictError(`invalid allowed origin '${url}': use an http(s) URL such as https://docs.example.com`);
  return parsed.origin;
}

export function mergeDomain(input: DomainInput, existing: Domain | undefined, now = new Date()): Domain {
  checkTenantId('domain', input.id);
  if (existing && existing.orgId !== input.orgId) throw new TenantExistsError('domain', input.id);
  const { allowedOrigins, ...rest } = input;
  const origins = [...new Set((allowedOrigins ?? []).map(webOrigin))];
  return {
    ...rest,
    ...(origins.length > 0 ? { allowedOrigins: origins } : {}),
    createdAt: existing?.createdAt ?? now.toISOString(),
    updatedAt: now.toISOString(),
  };
}

export function newKey(orgId: string, kind: KeyKind, now = new Date()): { record: ApiKeyRecord; secret: string } {
  const secret = newSecret(kind);
  const record: ApiKeyRecord = {
    id: newKeyId(),
    orgId,
    kind,
    hash: hashSecret(secret),
    hint: hintOf(secret),
    createdAt: now.toISOString(),
  };
  return { record, secret };
}

export const byId = <T extends { id: string }>(a: T, b: T) => a.id.localeCompare(b.id);
