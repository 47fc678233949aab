import type { Queries } from '../db/index.js';
export type KeyKind = 'admin' | 'assistant';

/** Per-organisation overrides of the API.md limits; absent fields use the defaults. */
export interface OrgLimits {
  agentCreatesPerHour?: number;
  agentMessagesPerHour?: number;
  assistantPerKeyPerMonth?: number;
  assistantPerOrgPerHour?: number;
  assistantPerIpPerDay?: number;
}

export interface Organisation {
  id: string;
  createdAt: string;
  limits?: OrgLimits;
  /** Set while it is being deleted: its keys are revoked, its sessions ended; projects or domains are left to delete. */
  deletingSince?: string;
}

/** What the first step of deleting an organisation did. */
export interface OrgDeletionBegun {
  revokedKeys: number;
  endedSessions: number;
}

export type ForgeKind = 'local' | 'github' | 'gitlab';
/** Forges reached over HTTPS with a token named by `forgeTokenEnv`. */
export const TOKEN_FORGES: readonly ForgeKind[] = ['github', 'gitlab'];

export interface Project {
  id: string;
  orgId: string;
  /** Clone URL or local path of the docs repository. */
  repository: string;
  branch: string;
  /** Folder of the docs inside the repository, '' for the root. */
  docsPath: string;
  forge: ForgeKind;
  /** Name of the environment variable that holds the forge token; never the token itself. */
  forgeTokenEnv?: string;
  allowedModels: string[];
  createdAt: string;
  updatedAt: string;
}

export interface Domain {
  id: string;
  orgId: string;
  /** Git URL or local folder of the docs. */
  source: string;
  branch?: string;
  docsPath: string;
  /** Public site the citations link to. */
  baseUrl: string;
  includeHidden: boolean;
  supportContact?: string;
  /**
   * Web origins (`https://docs.acme.com`) whose pages may call this domain's
   * browser endpoints; absent or empty: any origin.
   */
  allowedOrigins?: string[];
  /**
   * Name of the API's environment variable holding the secret that signs pushes to the domain's
   * push hook; never the secret itself. Absent: the hook answers 404.
   */
  pushSecretEnv?: string;
  /**
   * Minutes between polls of the docs branch (POLL_MINUTES bounds them): a new head re-indexes the
   * domain, for deployments no forge can reach. Absent: not polled.
   */
  pollMinutes?: number;
  /**
   * The language the docs are written in (a BCP 47 tag among DOMAIN_LANGUAGES, canonical case: `de`,
   * `pt-BR`): pages that state no language of their own and the readers' questions are stemmed as
   * its words. Absent: English, every page stemmed as English whatever language it states.
   */
  language?: string;
  createdAt: string;
  updatedAt: string;
}

/** What the store keeps of a key: never the secret, only its SHA-256. */
export interface ApiKeyRecord {
  id: string;
  orgId: string;
  kind: KeyKind;
  hash: string;
  /** The first characters of the secret, to tell keys apart in listings. */
  hint: string;
  createdAt: string;
  revokedAt?: string;
  /** After this instant the key no longer authenticates. */
  expiresAt?: string;
  /** When the key last authenticated, recorded at most once a minute. */
  lastUsedAt?: string;
}

/** A signed-in console (a browser that exchanged an admin key for a cookie); the cookie's token itself is not kept. */
export interface ConsoleSession {
  orgId: string;
  /** The admin key that signed in. */
  key: ApiKeyRecord;
  /** What state-changing requests must echo in `X-CSRF-Token`. */
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
}

export type ProjectInput = Omit<Project, 'createdAt' | 'updatedAt'>;
export type DomainInput = Omit<Domain, 'createdAt' | 'updatedAt'>;

export interface TenantStore {
  addOrg(id: string, limits?: OrgLimits): Promise<Organisation>;
  getOrg(id: string): Promise<Organisation | undefined>;
  listOrgs(): Promise<Organisation[]>;
  /**
   * Begins deleting an organisation, in one transaction: revokes its keys, ends its console sessions
   * and marks it deleting, so nothing more can be added to it. Repeating it on a deleting one is
   * harmless. UnknownTenantError for none (or one already deleted).
   */
  beginOrgDeletion(id: string): Promise<OrgDeletionBegun>;
  /**
   * Ends it once no project or domain is left (TenantConflictError naming them otherwise): deletes
   * its record and its keys, and retires its id, so no organisation can be created with it again.
   */
  finishOrgDeletion(id: string): Promise<void>;
  putProject(input: ProjectInput): Promise<Project>;
  /**
   * Changes the organisation's project `id` (UnknownTenantError for none, or another's) to what
   * `change` makes of it, read and written in one transaction that holds the record, so two changes
   * at once are applied one after the other. `change` may throw to refuse (nothing is written).
   */
  updateProject(id: string, orgId: string, change: (current: Project) => ProjectInput): Promise<Project>;
  /** Like putProject, but refuses an id that exists (TenantExistsError). */
  addProject(input: ProjectInput): Promise<Project>;
  /**
   * Begins deleting the project: marks it deleting, so no job is created for it from now on (the job
   * store's create reads the mark in its transaction). Repeating it on a deleting one is harmless.
   * False when there was no such project.
   */
  beginProjectDeletion(id: string): Promise<boolean>;
  /** False when there was no such project. `alsoDelete` runs in the same transaction: what goes with the record. */
  deleteProject(id: string, alsoDelete?: (trx: Queries) => Promise<void>): Promise<boolean>;
  getProject(id: string): Promise<Project | undefined>;
  listProjects(orgId?: string): Promise<Project[]>;
  putDomain(input: DomainInput): Promise<Domain>;
  /**
   * Changes the organisation's domain `id` (UnknownTenantError for none, or another's) to what
   * `change` makes of it, read and written in one transaction that holds the record, so two changes
   * at once are applied one after the other. `change` may throw to refuse (nothing is written).
   */
  updateDomain(id: string, orgId: string, change: (current: Domain) => DomainInput): Promise<Domain>;
  /** Like putDomain, but refuses an id that exists (TenantExistsError). */
  addDomain(input: DomainInput): Promise<Domain>;
  /**
   * False when there was no such domain. Its id is retired marked as clearing: the index is removed
   * after the record (see deleteDomainAndIndex), and until `domainCleared` the id cannot be created again.
   */
  deleteDomain(id: string): Promise<boolean>;
  /** The organisation's deleted domains whose index is not removed yet. */
  clearingDomains(orgId: string): Promise<string[]>;
  /** The deleted domain's index is gone: its id may be created again by its organisation. False when it was not clearing. */
  domainCleared(id: string): Promise<boolean>;
  getDomain(id: string): Promise<Domain | undefined>;
  listDomains(orgId?: string): Promise<Domain[]>;
  /** Creates a key; the secret is returned once and never stored. */
  createKey(orgId: string, kind: KeyKind, expiresAt?: string): Promise<{ record: ApiKeyRecord; secret: string }>;
  listKeys(orgId?: string): Promise<ApiKeyRecord[]>;
  /**
   * Revokes a key (a revoked one is answered unchanged). With `orgId`, only a key of that
   * organisation (UnknownTenantError otherwise). With `keepAnAdmin` (the time that says what is in
   * force), the organisation's last admin key in force is refused (TenantConflictError), checked and
   * revoked in one transaction that holds the organisation, so two revocations at once cannot both pass.
   */
  revokeKey(id: string, opts?: { orgId?: string; keepAnAdmin?: Date }): Promise<ApiKeyRecord>;
  /** The live (not revoked, not expired) key whose secret this is, or undefined; records its use at most once a minute. */
  authenticate(secret: string): Promise<ApiKeyRecord | undefined>;
  /** The key whose secret has this SHA-256 (hex), live or not; what `authenticate` looks up. */
  findKey(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Records that the key authenticated at `at`; answers the key as it now reads. */
  recordKeyUse(key: ApiKeyRecord, at: string): Promise<ApiKeyRecord>;
  /** Opens a console session for a live admin key, for `lifetimeMs` at most (never past the key's expiry); the token is returned this once. */
  openConsoleSession(key: ApiKeyRecord, lifetimeMs: number): Promise<{ token: string; session: ConsoleSession }>;
  /** The session of this token while it lasts and its key is live, or undefined. */
  findConsoleSession(token: string): Promise<ConsoleSession | undefined>;
  endConsoleSession(token: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class UnknownTenantError extends Error {
  override name = 'UnknownTenantError';
  constructor(readonly kind: 'organisation' | 'project' | 'domain' | 'key', readonly id: string) {
    super(`unknown ${kind} '${id}'`);
  }
}

export class TenantConflictError extends Error {
  override name = 'TenantConflictError';
}

/**
 * An id that is taken: a live project or domain of this organisation or another, or another
 * organisation's deleted one (its id stays theirs). Ids are global across organisations, and the
 * message is one whatever the reason, so it tells an organisation nothing of another's ids.
 */
export class TenantExistsError extends TenantConflictError {
  override name = 'TenantExistsError';
  constructor(
    readonly kind: 'project' | 'domain',
    readonly id: string,
  ) {
    super(`${kind} id '${id}' is taken: choose another id`);
  }
}
