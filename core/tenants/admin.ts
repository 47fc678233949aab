import { isOwnSetting } from '../config.js';
import type { Queries } from '../db/index.js';
import {
  type ApiKeyRecord,
  type Domain,
  type DomainInput,
  type KeyKind,
  type Project,
  type ProjectInput,
  TOKEN_FORGES,
  type TenantStore,
  UnknownTenantError,
} from './types.js';
import { privateTargetProblem } from '../http/index.js';
import { locationProblem, takenLocationProblem } from './locations.js';
import { orgVariableProblem } from './org-variables.js';
import { maskCredentials, MASK, restoreCredentials } from './url-credentials.js';

/**
 * The management rules of an organisation's projects, domains and keys, shared by the admin HTTP
 * API and the CLI. Every call names the organisation: another organisation's id is unknown
 * (UnknownTenantError), so a caller never learns which ids exist elsewhere.
 */

/** A rule the input breaks, with the field it concerns (an HTTP 400, a CLI error). */
export class TenantInputError extends Error {
  override name = 'TenantInputError';
  constructor(
    readonly field: string,
    /** The rule, without the field's name: what a form shows beside the field. */
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

type Patch<T> = { [K in keyof T]?: T[K] | null };
/** The fields a PATCH may change; absent keeps the value, null clears an optional one. */
export type ProjectPatch = Patch<Omit<ProjectInput, 'id' | 'orgId'>>;
export type DomainPatch = Patch<Omit<DomainInput, 'id' | 'orgId'>>;

/** Applies a patch: named fields change, absent ones keep their value, null removes an optional field. */
function applyPatch<T extends object>(current: T, patch: Patch<Partial<T>>): T {
  const next: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete next[field];
    else next[field] = value;
  }
  return next as T;
}

function checkForge(project: Pick<ProjectInput, 'forge' | 'forgeTokenEnv'>): void {
  if (TOKEN_FORGES.includes(project.forge) && !project.forgeTokenEnv)
    throw new TenantInputError('forgeTokenEnv', `is required with forge '${project.forge}' (the name of the variable holding the token)`);
  if (project.forgeTokenEnv && isOwnSetting(project.forgeTokenEnv))
    throw new TenantInputError('forgeTokenEnv', `names one of Quire's own settings (${project.forgeTokenEnv}), which is never sent to a forge: name a variable set for this project's token`);
}

const inputOfProject = ({ createdAt: _c, updatedAt: _u, ...input }: Project): ProjectInput => input;
const inputOfDomain = ({ createdAt: _c, updatedAt: _u, ...input }: Domain): DomainInput => input;

/** What the admin API and the CLI show of a project: its repository's credentials masked. */
export const projectView = (p: Project): Project => ({ ...p, repository: maskCredentials(p.repository) });
/** What they show of a domain: its source's credentials masked. */
export const domainView = (d: Domain): Domain => ({ ...d, source: maskCredentials(d.source) });

/** A changed URL field: its masked credentials (a form sent back as shown) are the stored ones. */
function keepCredentials(field: string, incoming: string | null | undefined, stored: string): string | null | undefined {
  if (incoming === undefined || incoming === null) return incoming;
  const restored = restoreCredentials(incoming, stored);
  if (restored === undefined) throw new TenantInputError(field, `holds ${MASK} in place of credentials, and the stored URL has none: give the URL with its credentials, or without any`);
  return restored;
}

/** A new URL field may not hold the mask: there are no stored credentials it could stand for. */
function refuseMask(field: string, value: string): void {
  if (restoreCredentials(value, '') === undefined) throw new TenantInputError(field, `holds ${MASK} in place of credentials: give the URL with its credentials, or without any`);
}

async function ownedProject(tenants: TenantStore, orgId: string, id: string): Promise<Project> {
  const project = await tenants.getProject(id);
  if (!project || project.orgId !== orgId) throw new UnknownTenantError('project', id);
  return project;
}

export const getOrgProject = async (tenants: TenantStore, orgId: string, id: string): Promise<Project> => projectView(await ownedProject(tenants, orgId, id));

export const listOrgProjects = async (tenants: TenantStore, orgId: string): Promise<Project[]> => (await tenants.listProjects(orgId)).map(projectView);

/**
 * Who names a location: an organisation's admin (the admin API, the console) only within the
 * folders the operator lists (see locations.ts); without `localPaths`, the operator (CLI, seed file).
 */
export interface AdminRules {
  localPaths?: readonly string[];
  /** False: a clone URL's host may not be on this machine or its private network (QUIRE_ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets?: boolean;
  /** True: a variable the organisation names starts with its own prefix (QUIRE_ORG_SCOPED_VARIABLES, org-variables.ts). */
  orgScopedVariables?: boolean;
}

/** Refuses a variable name another organisation's could be (TenantInputError); an unchanged one stays, whoever set it. */
async function checkVariable(tenants: TenantStore, field: string, orgId: string, name: string | null | undefined, rule: AdminRules, stored?: string): Promise<void> {
  if (!rule.orgScopedVariables || name === undefined || name === null || name === stored) return;
  const problem = orgVariableProblem(orgId, name, (await tenants.listOrgs()).map((org) => org.id));
  if (problem) throw new TenantInputError(field, problem);
}

/** Where the projects and domains of organisations other than `orgId` are. */
async function othersLocations(tenants: TenantStore, orgId: string): Promise<string[]> {
  const [projects, domains] = await Promise.all([tenants.listProjects(), tenants.listDomains()]);
  return [...projects.filter((p) => p.orgId !== orgId).map((p) => p.repository), ...domains.filter((d) => d.orgId !== orgId).map((d) => d.source)];
}

/** Refuses a location the caller may not name (TenantInputError); an unchanged one stays, whoever set it. */
async function checkLocation(tenants: TenantStore, orgId: string, field: string, value: string | null | undefined, rule: AdminRules, stored?: string): Promise<void> {
  if (rule.localPaths === undefined || value === undefined || value === null || value === stored) return;
  const problem =
    (await locationProblem(value, rule.localPaths)) ??
    (rule.allowPrivateTargets === false ? await privateTargetProblem(value) : undefined) ??
    (await takenLocationProblem(value, rule.localPaths, () => othersLocations(tenants, orgId)));
  if (problem) throw new TenantInputError(field, problem);
}

/** Creates a project; a taken id (live in any organisation, or another's deleted one) is refused (TenantExistsError). */
export async function createProject(tenants: TenantStore, input: ProjectInput, rule: AdminRules = {}): Promise<Project> {
  checkForge(input);
  refuseMask('repository', input.repository);
  await checkLocation(tenants, input.orgId, 'repository', input.repository, rule);
  await checkVariable(tenants, 'forgeTokenEnv', input.orgId, input.forgeTokenEnv, rule);
  return projectView(await tenants.addProject(input));
}

export async function updateProject(tenants: TenantStore, orgId: string, id: string, patch: ProjectPatch, rule: AdminRules = {}): Promise<Project> {
  if (rule.localPaths !== undefined && patch.repository) {
    const stored = (await ownedProject(tenants, orgId, id)).repository;
    await checkLocation(tenants, orgId, 'repository', restoreCredentials(patch.repository, stored) ?? patch.repository, rule, stored);
  }
  if (rule.orgScopedVariables && patch.forgeTokenEnv) await checkVariable(tenants, 'forgeTokenEnv', orgId, patch.forgeTokenEnv, rule, (await ownedProject(tenants, orgId, id)).forgeTokenEnv);
  const updated = await tenants.updateProject(id, orgId, (stored) => {
    const current = inputOfProject(stored);
    const next = applyPatch(current, { ...patch, repository: keepCredentials('repository', patch.repository, current.repository) });
    checkForge(next);
    return next;
  });
  return projectView(updated);
}

/**
 * Deletes the project record, and runs `alsoDelete` in the same transaction: what the project owns
 * (core/deletion's deleteProjectAndJobs passes its jobs, webhooks, automations and pull requests,
 * after stopping its jobs and deleting its schedules in Temporal). Agent routes answer 404 for the
 * project from now on. The id stays the organisation's (the store keeps it): no other organisation
 * can take it (see refuseRetiredElsewhere for why).
 */
export async function deleteProject(tenants: TenantStore, orgId: string, id: string, alsoDelete?: (trx: Queries) => Promise<void>): Promise<void> {
  await ownedProject(tenants, orgId, id);
  // Deleted meanwhile (two deletes at once): the second is told it is unknown, as it would be a moment later.
  if (!(await tenants.deleteProject(id, alsoDelete))) throw new UnknownTenantError('project', id);
}

async function ownedDomain(tenants: TenantStore, orgId: string, id: string): Promise<Domain> {
  const domain = await tenants.getDomain(id);
  if (!domain || domain.orgId !== orgId) throw new UnknownTenantError('domain', id);
  return domain;
}

export const getOrgDomain = async (tenants: TenantStore, orgId: string, id: string): Promise<Domain> => domainView(await ownedDomain(tenants, orgId, id));

export const listOrgDomains = async (tenants: TenantStore, orgId: string): Promise<Domain[]> => (await tenants.listDomains(orgId)).map(domainView);

/** Creates a domain; a taken id (live in any organisation, or another's deleted one) is refused (TenantExistsError). */
export async function createDomain(tenants: TenantStore, input: DomainInput, rule: AdminRules = {}): Promise<Domain> {
  refuseMask('source', input.source);
  await checkLocation(tenants, input.orgId, 'source', input.source, rule);
  await checkVariable(tenants, 'pushSecretEnv', input.orgId, input.pushSecretEnv, rule);
  return domainView(await tenants.addDomain(input));
}

export async function updateDomain(tenants: TenantStore, orgId: string, id: string, patch: DomainPatch, rule: AdminRules = {}): Promise<Domain> {
  if (rule.localPaths !== undefined && patch.source) {
    const stored = (await ownedDomain(tenants, orgId, id)).source;
    await checkLocation(tenants, orgId, 'source', restoreCredentials(patch.source, stored) ?? patch.source, rule, stored);
  }
  if (rule.orgScopedVariables && patch.pushSecretEnv) await checkVariable(tenants, 'pushSecretEnv', orgId, patch.pushSecretEnv, rule, (await ownedDomain(tenants, orgId, id)).pushSecretEnv);
  const updated = await tenants.updateDomain(id, orgId, (stored) => {
    const current = inputOfDomain(stored);
    return applyPatch(current, { ...patch, source: keepCredentials('source', patch.source, current.source) });
  });
  return domainView(updated);
}

/**
 * Deletes the domain record: its routes answer 404 from now on, and its id is marked clearing until
 * its index is removed (core/deletion's deleteDomainAndIndex does both). Its analytics stay (the
 * organisation creating the id again finds them); no other organisation can take the id.
 */
export async function deleteDomain(tenants: TenantStore, orgId: string, id: string): Promise<void> {
  await ownedDomain(tenants, orgId, id);
  if (!(await tenants.deleteDomain(id))) throw new UnknownTenantError('domain', id);
}

/** What a listing shows of a key: never its hash, only the first characters of its secret. */
export interface KeyView {
  id: string;
  kind: KeyKind;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export const keyView = (k: ApiKeyRecord): KeyView => ({
  id: k.id,
  kind: k.kind,
  prefix: k.hint,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt ?? null,
  expiresAt: k.expiresAt ?? null,
  revokedAt: k.revokedAt ?? null,
});

/** Creates a key; its secret is in the answer this once. An expiry must lie in the future. */
export async function createOrgKey(
  tenants: TenantStore,
  orgId: string,
  kind: KeyKind,
  expiresAt?: string,
): Promise<KeyView & { secret: string }> {
  if (expiresAt !== undefined && !(Date.parse(expiresAt) > Date.now())) throw new TenantInputError('expiresAt', 'must be a date-time in the future');
  const { record, secret } = await tenants.createKey(orgId, kind, expiresAt);
  return { ...keyView(record), secret };
}

export const listOrgKeys = async (tenants: TenantStore, orgId: string): Promise<KeyView[]> => (await tenants.listKeys(orgId)).map(keyView);

/**
 * Revokes a key of the organisation; revoking a revoked key answers it unchanged. The last admin
 * key in force is refused (TenantConflictError): without it nobody could sign in to the console or
 * call the admin API again, and only an operator could make a new one.
 */
export async function revokeOrgKey(tenants: TenantStore, orgId: string, id: string, now = new Date()): Promise<KeyView> {
  return keyView(await tenants.revokeKey(id, { orgId, keepAnAdmin: now }));
}
