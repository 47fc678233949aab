import type { Database, Queries } from '../db/index.js';
import { fromBool, json, parseJson, bool } from '../db/index.js';
import type { DomainsTable, OrgsTable, ProjectsTable, RetiredIdsTable } from '../db/schema.js';
import { consoleSessionQueries } from './console-sessions.js';
import { keyOf } from './key-rows.js';
import { authenticateSecret } from './authenticate.js';
import { mergeDomain, mergeProject, newKey, newOrg } from './records.js';
import {
  type ApiKeyRecord,
  type Domain,
  type DomainInput,
  type ForgeKind,
  type Organisation,
  type OrgDeletionBegun,
  type OrgLimits,
  type Project,
  type ProjectInput,
  type TenantStore,
  TenantConflictError,
  TenantExistsError,
  UnknownTenantError,
} from './types.js';

const orgOf = (row: OrgsTable): Organisation => ({
  id: row.id,
  createdAt: row.created_at,
  ...(row.limits_json ? { limits: parseJson<OrgLimits>(row.limits_json) } : {}),
  ...(row.deleting_since ? { deletingSince: row.deleting_since } : {}),
});

const projectOf = (row: ProjectsTable): Project => ({
  id: row.id,
  orgId: row.org_id,
  repository: row.repository,
  branch: row.branch,
  docsPath: row.docs_path,
  forge: row.forge as ForgeKind,
  ...(row.forge_token_env ? { forgeTokenEnv: row.forge_token_env } : {}),
  allowedModels: parseJson<string[]>(row.allowed_models_json),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const projectRow = (p: Project): ProjectsTable => ({
  id: p.id,
  org_id: p.orgId,
  repository: p.repository,
  branch: p.branch,
  docs_path: p.docsPath,
  forge: p.forge,
  forge_token_env: p.forgeTokenEnv ?? null,
  allowed_models_json: json(p.allowedModels),
  created_at: p.createdAt,
  updated_at: p.updatedAt,
});

const domainOf = (row: DomainsTable): Domain => ({
  id: row.id,
  orgId: row.org_id,
  source: row.source,
  ...(row.branch ? { branch: row.branch } : {}),
  docsPath: row.docs_path,
  baseUrl: row.base_url,
  includeHidden: fromBool(row.include_hidden),
  ...(row.support_contact ? { supportContact: row.support_contact } : {}),
  ...(row.allowed_origins_json ? { allowedOrigins: parseJson<string[]>(row.allowed_origins_json) } : {}),
  ...(row.push_secret_env ? { pushSecretEnv: row.push_secret_env } : {}),
  ...(row.poll_minutes ? { pollMinutes: Number(row.poll_minutes) } : {}),
  ...(row.language ? { language: row.language } : {}),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const domainRow = (d: Domain): DomainsTable => ({
  id: d.id,
  org_id: d.orgId,
  source: d.source,
  branch: d.branch ?? null,
  docs_path: d.docsPath,
  base_url: d.baseUrl,
  include_hidden: bool(d.includeHidden),
  support_contact: d.supportContact ?? null,
  allowed_origins_json: d.allowedOrigins?.length ? json(d.allowedOrigins) : null,
  push_secret_env: d.pushSecretEnv ?? null,
  poll_minutes: d.pollMinutes ?? null,
  language: d.language ?? null,
  created_at: d.createdAt,
  updated_at: d.updatedAt,
});


/**
 * The organisation something is added to exists and is not being deleted. Held until the transaction
 * ends (a share lock on PostgreSQL; SQLite's write transaction is one at a time): a deletion that
 * begins meanwhile waits, so nothing is added to an organisation after its deletion began.
 */
async function requireOrg(trx: Queries, dialect: Database['dialect'], orgId: string): Promise<void> {
  const select = trx.selectFrom('orgs').select(['id', 'deleting_since']).where('id', '=', orgId);
  const found = await (dialect === 'postgres' ? select.forShare() : select).executeTakeFirst();
  if (!found) throw new UnknownTenantError('organisation', orgId);
  if (found.deleting_since) throw new TenantConflictError(deletingMessage(orgId));
}

const deletingMessage = (orgId: string) => `organisation '${orgId}' is being deleted: repeat its delete to finish it`;

/**
 * Organisations, projects, domains and keys in the system of record. Every read is a query; the
 * platform puts a short-lived cache in front of it (cachedTenantStore).
 */
/** An admin key neither revoked nor expired at `now`. */
const adminInForce = (k: { kind: string; revoked_at: string | null; expires_at: string | null }, now: Date): boolean =>
  k.kind === 'admin' && !k.revoked_at && !(k.expires_at && Date.parse(k.expires_at) <= now.getTime());

/** Keeps a deleted project's or domain's id for its organisation (migration 009 says why). */
async function retire(trx: Queries, kind: RetiredIdsTable['kind'], id: string, orgId: string): Promise<void> {
  const at = new Date().toISOString();
  // A domain's index is removed after its record (migration 012): marked until it is.
  const row = { kind, id, org_id: orgId, retired_at: at, clearing_since: kind === 'domain' ? at : null };
  await trx
    .insertInto('retired_ids')
    .values(row)
    .onConflict((c) => c.columns(['kind', 'id']).doUpdateSet({ org_id: row.org_id, retired_at: row.retired_at, clearing_since: row.clearing_since }))
    .execute();
}

/** Refuses a domain id whose index is still being removed: created again now, it would not start empty. */
async function refuseClearing(trx: Queries, id: string): Promise<void> {
  const clearing = await trx.selectFrom('retired_ids').select('clearing_since').where('kind', '=', 'domain').where('id', '=', id).executeTakeFirst();
  if (clearing?.clearing_since) throw new TenantConflictError(`domain '${id}' is being deleted (its index is not removed yet): repeat its delete to finish it`);
}

/**
 * Refuses, as an id that exists (the same TenantExistsError), the id of another organisation's
 * deleted project or domain: what is kept by the id is theirs. A domain's analytics and threads stay
 * under it until their retention. A project's rows go with its record and its jobs' runs are deleted
 * from Temporal (core/deletion), which removes them in the background, and a job created with an Idempotency-Key is named by the project id and
 * the key (jobIdForKey), so the same id and key in another organisation would name that workflow
 * again. The organisation's own deleted id it may take back.
 */
async function refuseRetiredElsewhere(trx: Queries, kind: 'project' | 'domain', id: string, orgId: string): Promise<void> {
  const retired = await trx.selectFrom('retired_ids').select('org_id').where('kind', '=', kind).where('id', '=', id).executeTakeFirst();
  if (retired && retired.org_id !== orgId) throw new TenantExistsError(kind, id);
}

/** How one tenant table's rows and records map: projects and domains alike. */
interface TenantTable<R extends { id: string; orgId: string }, I> {
  table: 'projects' | 'domains';
  kind: 'project' | 'domain';
  recordOf(row: ProjectsTable | DomainsTable): R;
  rowOf(record: R): ProjectsTable | DomainsTable;
  merge(input: I, existing: R | undefined): R;
}

const PROJECTS: TenantTable<Project, ProjectInput> = {
  table: 'projects',
  kind: 'project',
  recordOf: (row) => projectOf(row as ProjectsTable),
  rowOf: projectRow,
  merge: mergeProject,
};
const DOMAINS: TenantTable<Domain, DomainInput> = {
  table: 'domains',
  kind: 'domain',
  recordOf: (row) => domainOf(row as DomainsTable),
  rowOf: domainRow,
  merge: mergeDomain,
};

/**
 * Changes the organisation's record `id` to what `change` makes of it, read and held until it is
 * written (a row lock on PostgreSQL; SQLite's write transaction is one at a time): two changes at
 * once take turns, neither lost.
 */
async function lockedUpdate<R extends { id: string; orgId: string }, I>(
  database: Database,
  t: TenantTable<R, I>,
  id: string,
  orgId: string,
  change: (current: R) => I,
): Promise<R> {
  return database.transaction(async (trx) => {
    const select = trx.selectFrom(t.table).selectAll().where('id', '=', id);
    const row = await (database.dialect === 'postgres' ? select.forUpdate() : select).executeTakeFirst();
    if (!row || row.org_id !== orgId) throw new UnknownTenantError(t.kind, id);
    const current = t.recordOf(row);
    const record = t.merge({ ...change(current), id, orgId }, current);
    const { id: _id, ...columns } = t.rowOf(record);
    await trx.updateTable(t.table).set(columns).where('id', '=', id).execute();
    return record;
  });
}

/**
 * Deletes the record `id`, keeping its id for its organisation (`retire`), and runs `alsoDelete` in
 * the same transaction (what goes with it); false when there was none.
 */
async function deleteRetiring(
  database: Database,
  t: Pick<TenantTable<never, never>, 'table' | 'kind'>,
  id: string,
  alsoDelete?: (trx: Queries) => Promise<void>,
): Promise<boolean> {
  return database.transaction(async (trx) => {
    const row = await trx.deleteFrom(t.table).where('id', '=', id).returning('org_id').executeTakeFirst();
    if (!row) return false;
    await retire(trx, t.kind, id, row.org_id);
    await alsoDelete?.(trx);
    return true;
  });
}

/** See TenantStore.beginOrgDeletion: keys, sessions and the mark in one transaction. */
async function beginOrgDeletion(database: Database, id: string): Promise<OrgDeletionBegun> {
  return database.transaction(async (trx) => {
    const now = new Date().toISOString();
    // Written first, so the row is held (PostgreSQL) until the keys are revoked: a key created meanwhile waits and is refused.
    const marked = await trx
      .updateTable('orgs')
      .set((eb) => ({ deleting_since: eb.fn.coalesce('deleting_since', eb.val(now)) }))
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) throw new UnknownTenantError('organisation', id);
    const revoked = await trx.updateTable('api_keys').set({ revoked_at: now }).where('org_id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    const ended = await trx.deleteFrom('console_sessions').where('org_id', '=', id).executeTakeFirst();
    return { revokedKeys: Number(revoked.numUpdatedRows), endedSessions: Number(ended.numDeletedRows) };
  });
}

/** See TenantStore.finishOrgDeletion: the record, its keys and the retired id in one transaction. */
async function finishOrgDeletion(database: Database, id: string): Promise<void> {
  await database.transaction(async (trx) => {
    const select = trx.selectFrom('orgs').select('deleting_since').where('id', '=', id);
    const org = await (database.dialect === 'postgres' ? select.forUpdate() : select).executeTakeFirst();
    if (!org) throw new UnknownTenantError('organisation', id);
    if (!org.deleting_since) throw new TenantConflictError(`organisation '${id}' is not being deleted`);
    const projects = await trx.selectFrom('projects').select('id').where('org_id', '=', id).execute();
    const domains = await trx.selectFrom('domains').select('id').where('org_id', '=', id).execute();
    const clearing = await trx.selectFrom('retired_ids').select('id').where('kind', '=', 'domain').where('org_id', '=', id).where('clearing_since', 'is not', null).execute();
    if (projects.length + domains.length + clearing.length > 0)
      throw new TenantConflictError(
        `organisation '${id}' still has ${[...projects.map((p) => `project ${p.id}`), ...domains.map((d) => `domain ${d.id}`), ...clearing.map((d) => `the index of domain ${d.id}`)].join(', ')}`,
      );
    await trx.deleteFrom('console_sessions').where('org_id', '=', id).execute();
    await trx.deleteFrom('api_keys').where('org_id', '=', id).execute();
    await trx.deleteFrom('orgs').where('id', '=', id).execute();
    await retire(trx, 'organisation', id, id);
  });
}

export function createTenantStore(database: Database): TenantStore {
  const q = database.queries;
  const store: TenantStore = {
    addOrg: (id, limits) =>
      database.transaction(async (trx) => {
        const existing = await trx.selectFrom('orgs').selectAll().where('id', '=', id).executeTakeFirst();
        if (existing?.deleting_since) throw new TenantConflictError(deletingMessage(id));
        if (!existing && (await trx.selectFrom('retired_ids').select('id').where('kind', '=', 'organisation').where('id', '=', id).executeTakeFirst()))
          throw new TenantConflictError(`organisation id '${id}' was deleted and stays retired (what is kept under it ages out by retention, and no new organisation may read it): choose another id`);
        const org = existing ? { ...orgOf(existing), ...(limits ? { limits } : {}) } : newOrg(id, limits);
        const row = { id, created_at: org.createdAt, limits_json: org.limits ? json(org.limits) : null, deleting_since: null };
        await trx.insertInto('orgs').values(row).onConflict((c) => c.column('id').doUpdateSet({ limits_json: row.limits_json })).execute();
        return org;
      }),
    getOrg: async (id) => {
      const row = await q.selectFrom('orgs').selectAll().where('id', '=', id).executeTakeFirst();
      return row && orgOf(row);
    },
    listOrgs: async () => (await q.selectFrom('orgs').selectAll().orderBy('id').execute()).map(orgOf),
    beginOrgDeletion: (id) => beginOrgDeletion(database, id),
    finishOrgDeletion: (id) => finishOrgDeletion(database, id),

    putProject: (input: ProjectInput) =>
      database.transaction(async (trx) => {
        await requireOrg(trx, database.dialect, input.orgId);
        const existing = await trx.selectFrom('projects').selectAll().where('id', '=', input.id).executeTakeFirst();
        if (!existing) await refuseRetiredElsewhere(trx, 'project', input.id, input.orgId);
        const project = mergeProject(input, existing && projectOf(existing));
        const { id: _id, ...change } = projectRow(project);
        await trx.insertInto('projects').values(projectRow(project)).onConflict((c) => c.column('id').doUpdateSet(change)).execute();
        return project;
      }),
    updateProject: (id, orgId, change) => lockedUpdate(database, PROJECTS, id, orgId, change),
    addProject: (input: ProjectInput) =>
      database.transaction(async (trx) => {
        await requireOrg(trx, database.dialect, input.orgId);
        const existing = await trx.selectFrom('projects').select('id').where('id', '=', input.id).executeTakeFirst();
        if (existing) throw new TenantExistsError('project', input.id);
        await refuseRetiredElsewhere(trx, 'project', input.id, input.orgId);
        const project = mergeProject(input, undefined);
        // Two creates of one id at once both find none on PostgreSQL: the second insert does nothing, and is told so.
        const inserted = await trx.insertInto('projects').values(projectRow(project)).onConflict((c) => c.column('id').doNothing()).executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) throw new TenantExistsError('project', input.id);
        return project;
      }),
    beginProjectDeletion: async (id) => {
      // One statement: it waits for a job create holding the project (PostgreSQL), which its delete then finds.
      const marked = await q
        .updateTable('projects')
        .set((eb) => ({ deleting_since: eb.fn.coalesce('deleting_since', eb.val(new Date().toISOString())) }))
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(marked.numUpdatedRows) > 0;
    },
    deleteProject: (id, alsoDelete) => deleteRetiring(database, PROJECTS, id, alsoDelete),
    getProject: async (id) => {
      const row = await q.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
      return row && projectOf(row);
    },
    listProjects: async (orgId) => {
      let query = q.selectFrom('projects').selectAll().orderBy('id');
      if (orgId !== undefined) query = query.where('org_id', '=', orgId);
      return (await query.execute()).map(projectOf);
    },

    putDomain: (input: DomainInput) =>
      database.transaction(async (trx) => {
        await requireOrg(trx, database.dialect, input.orgId);
        const existing = await trx.selectFrom('domains').selectAll().where('id', '=', input.id).executeTakeFirst();
        if (!existing) await refuseRetiredElsewhere(trx, 'domain', input.id, input.orgId);
        if (!existing) await refuseClearing(trx, input.id);
        const domain = mergeDomain(input, existing && domainOf(existing));
        const { id: _id, ...change } = domainRow(domain);
        await trx.insertInto('domains').values(domainRow(domain)).onConflict((c) => c.column('id').doUpdateSet(change)).execute();
        return domain;
      }),
    updateDomain: (id, orgId, change) => lockedUpdate(database, DOMAINS, id, orgId, change),
    addDomain: (input: DomainInput) =>
      database.transaction(async (trx) => {
        await requireOrg(trx, database.dialect, input.orgId);
        const existing = await trx.selectFrom('domains').select('id').where('id', '=', input.id).executeTakeFirst();
        if (existing) throw new TenantExistsError('domain', input.id);
        await refuseRetiredElsewhere(trx, 'domain', input.id, input.orgId);
        await refuseClearing(trx, input.id);
        const domain = mergeDomain(input, undefined);
        // Two creates of one id at once both find none on PostgreSQL: the second insert does nothing, and is told so.
        const inserted = await trx.insertInto('domains').values(domainRow(domain)).onConflict((c) => c.column('id').doNothing()).executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) throw new TenantExistsError('domain', input.id);
        return domain;
      }),
    deleteDomain: (id) => deleteRetiring(database, DOMAINS, id),
    clearingDomains: async (orgId) =>
      (
        await q
          .selectFrom('retired_ids')
          .select('id')
          .where('kind', '=', 'domain')
          .where('org_id', '=', orgId)
          .where('clearing_since', 'is not', null)
          .orderBy('id')
          .execute()
      ).map((r) => r.id),
    domainCleared: async (id) => {
      const cleared = await q.updateTable('retired_ids').set({ clearing_since: null }).where('kind', '=', 'domain').where('id', '=', id).where('clearing_since', 'is not', null).executeTakeFirst();
      return Number(cleared.numUpdatedRows) > 0;
    },
    getDomain: async (id) => {
      const row = await q.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst();
      return row && domainOf(row);
    },
    listDomains: async (orgId) => {
      let query = q.selectFrom('domains').selectAll().orderBy('id');
      if (orgId !== undefined) query = query.where('org_id', '=', orgId);
      return (await query.execute()).map(domainOf);
    },

    createKey: (orgId, kind, expiresAt) =>
      database.transaction(async (trx) => {
        await requireOrg(trx, database.dialect, orgId);
        const created = newKey(orgId, kind);
        const record: ApiKeyRecord = { ...created.record, ...(expiresAt ? { expiresAt: new Date(expiresAt).toISOString() } : {}) };
        await trx
          .insertInto('api_keys')
          .values({
            id: record.id,
            org_id: orgId,
            kind,
            hash: record.hash,
            hint: record.hint,
            created_at: record.createdAt,
            revoked_at: null,
            expires_at: record.expiresAt ?? null,
            last_used_at: null,
          })
          .execute();
        return { record, secret: created.secret };
      }),
    listKeys: async (orgId) => {
      let query = q.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id');
      if (orgId !== undefined) query = query.where('org_id', '=', orgId);
      return (await query.execute()).map(keyOf);
    },
    revokeKey: (id, opts = {}) =>
      database.transaction(async (trx) => {
        const found = await trx.selectFrom('api_keys').select('org_id').where('id', '=', id).executeTakeFirst();
        if (!found || (opts.orgId !== undefined && found.org_id !== opts.orgId)) throw new UnknownTenantError('key', id);
        // Held until the transaction ends (a row lock on PostgreSQL; SQLite's write transaction is one at a time):
        // two revocations of an organisation's keys at once take turns, so the check below sees the other's.
        if (opts.keepAnAdmin) await trx.updateTable('orgs').set((eb) => ({ limits_json: eb.ref('limits_json') })).where('id', '=', found.org_id).execute();
        const row = await trx.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        if (opts.keepAnAdmin && adminInForce(row, opts.keepAnAdmin)) {
          const others = await trx.selectFrom('api_keys').selectAll().where('org_id', '=', row.org_id).where('kind', '=', 'admin').where('id', '!=', id).execute();
          if (!others.some((k) => adminInForce(k, opts.keepAnAdmin!)))
            throw new TenantConflictError("this is the organisation's last admin key in force: create another admin key first, then revoke this one");
        }
        if (!row.revoked_at) {
          row.revoked_at = new Date().toISOString();
          await trx.updateTable('api_keys').set({ revoked_at: row.revoked_at }).where('id', '=', id).execute();
        }
        return keyOf(row);
      }),

    findKey: async (hash) => {
      const row = await q.selectFrom('api_keys').selectAll().where('hash', '=', hash).executeTakeFirst();
      return row && keyOf(row);
    },
    recordKeyUse: async (key, at) => {
      await q.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', key.id).execute();
      return { ...key, lastUsedAt: at };
    },
    authenticate: (secret) => authenticateSecret(store, secret),
    ...consoleSessionQueries(database),
    ping: () => database.ping(),
    close: async () => undefined,
  };
  return store;
}
