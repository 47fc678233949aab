import * as v from 'valibot';
import { DomainPatchBody, KeyCreateBody, ProjectPatchBody } from '../../api/admin/schemas.js';
import { deleteOrganisation, OrgDeletionIncompleteError } from '../../core/deletion/index.js';
import { reindexOnLanguageChange, syncDomainPollSchedule } from '../../core/index-runs/index.js';
import { rootReason } from '../../core/errors.js';
import { UsageError, type DatabaseContext } from './context.js';
import { defineCommand, flag, list, str, type FlagSpec, type FlagValues } from './flags.js';
import {
  createDomain,
  createProject,
  domainLanguageSchema,
  domainView,
  projectView,
  updateDomain,
  updateProject,
  type DomainPatch,
  type ForgeKind,
  type ProjectPatch,
  TenantExistsError,
  TOKEN_FORGES,
  UnknownTenantError,
} from '../../core/tenants/index.js';

const FORGES: readonly ForgeKind[] = ['local', 'github', 'gitlab'];

function orgAndName(arg: string | undefined, what: string): [string, string] {
  const m = /^([^/\s]+)\/([^/\s]+)$/.exec(arg ?? '');
  if (!m) throw new UsageError(`expected ORG/${what.toUpperCase()}, got '${arg ?? ''}'`);
  return [m[1]!, m[2]!];
}

function line(ctx: Pick<DatabaseContext, 'out'>, text: string): void {
  ctx.out.write(text + '\n');
}

/**
 * The flags' values held to the admin API's own rules (its body schemas), so the CLI stores
 * nothing the API would refuse: the first broken one is a usage error naming its flag.
 */
function checked<T>(schema: v.GenericSchema<unknown, unknown>, body: T, flagOf: Record<string, string>): T {
  const result = v.safeParse(schema, body);
  if (result.success) return body;
  const issue = result.issues[0];
  const field = issue.path?.[0]?.key;
  const name = typeof field === 'string' ? (flagOf[field] ?? field) : undefined;
  throw new UsageError(name ? `--${name} ${issue.message}` : issue.message);
}

/** Only the flags given: what a PATCH (and `update`) changes. */
function given<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}

/**
 * An add refused because its id is taken by a live project or domain: the operator is told it
 * exists and the update that changes it, with the organisation that owns it (which need not be
 * the one given).
 */
async function suggestingUpdate<T>(command: 'projects' | 'domains', id: string, owner: () => Promise<{ orgId: string } | undefined>, add: Promise<T>): Promise<T> {
  try {
    return await add;
  } catch (err) {
    if (!(err instanceof TenantExistsError)) throw err;
    const existing = await owner();
    // None: the id was a deleted one's, and the refusal already says to choose another.
    if (!existing) throw err;
    throw new Error(`${err.kind} '${id}' already exists; change it with: quire ${command} update ${existing.orgId}/${id} [flags]`, { cause: err });
  }
}

const ORGS_USAGE = 'quire orgs add ORG | quire orgs list | quire orgs delete ORG';

export const orgs = defineCommand({
  summary: 'Organisations: the tenants that own projects, domains and keys. `delete` takes everything under one away (see README).',
  usage: ['add ORG', 'list', 'delete ORG'],
  flags: {},
  opens: 'database',
  check([verb, id]) {
    if (!(verb === 'add' && id) && verb !== 'list') throw new UsageError(ORGS_USAGE);
  },
  async run([verb, id = ''], _values, ctx) {
    if (verb === 'add') {
      const org = await ctx.tenants.addOrg(id);
      line(ctx, `organisation ${org.id} ready`);
      return 0;
    }
    for (const org of await ctx.tenants.listOrgs())
      line(ctx, org.deletingSince ? `${org.id}\tpartly deleted since ${org.deletingSince}: quire orgs delete ${org.id} finishes it` : org.id);
    return 0;
  },
});

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * `quire orgs delete ORG`: its own command, as it opens Temporal (its projects' schedules and jobs) where
 * `add` and `list` open only the database.
 */
export const orgDelete = defineCommand({
  summary: 'Deletes an organisation: its keys and console sessions at once, then its domains and projects (schedules and running jobs stopped first, then each with what it owns); its id is retired.',
  usage: ['delete ORG'],
  flags: {},
  opens: 'platform',
  check([verb, id]) {
    if (verb !== 'delete' || !id) throw new UsageError(ORGS_USAGE);
  },
  async run([, id = ''], _values, ctx) {
    try {
      const done = await deleteOrganisation(ctx, id);
      line(ctx, `deleted organisation ${done.id}: ${count(done.revokedKeys, 'key')} revoked, ${count(done.endedSessions, 'console session')} ended`);
      line(ctx, `projects deleted: ${done.projects.join(', ') || 'none'}; domains deleted: ${done.domains.join(', ') || 'none'}`);
      return 0;
    } catch (err) {
      if (err instanceof UnknownTenantError && err.kind === 'organisation')
        throw new Error(`unknown organisation '${id}' (deleted already, or never created); quire orgs list names every one`, { cause: err });
      if (!(err instanceof OrgDeletionIncompleteError)) throw err;
      throw new Error(`${err.message} (${rootReason(err)})`, { cause: err });
    }
  },
});

const projectFlags: Record<string, FlagSpec> = {
  repo: { type: 'string', value: 'URL_OR_PATH', help: 'clone URL or local path of the docs repository (required by add)' },
  branch: { type: 'string', value: 'B', help: 'branch the agent works from (add: main)' },
  'docs-path': { type: 'string', value: 'P', help: 'folder of the docs inside the repository (add: the root)' },
  forge: { type: 'string', value: 'local|github|gitlab', help: 'where pull requests are opened (add: local)' },
  'token-env': { type: 'string', value: 'VAR', help: 'variable holding the forge token (required with github and gitlab)' },
  models: { type: 'string', value: 'a,b', help: 'models the project allows, comma-separated (add: any)' },
};

function forgeOf(value: string | undefined): ForgeKind | undefined {
  if (value === undefined) return undefined;
  const forge = FORGES.find((f) => f === value);
  if (!forge) throw new UsageError('--forge must be local, github or gitlab');
  return forge;
}

const modelsOf = (value: string | undefined) => value?.split(',').map((m) => m.trim()).filter(Boolean);

const PROJECT_FLAGS: Record<string, string> = { repository: 'repo', branch: 'branch', docsPath: 'docs-path', forge: 'forge', forgeTokenEnv: 'token-env', allowedModels: 'models' };

function projectPatch(values: FlagValues): ProjectPatch {
  return checked(ProjectPatchBody, given({
    repository: str(values, 'repo'),
    branch: str(values, 'branch'),
    docsPath: str(values, 'docs-path'),
    forge: forgeOf(str(values, 'forge')),
    forgeTokenEnv: str(values, 'token-env'),
    allowedModels: modelsOf(str(values, 'models')),
  }), PROJECT_FLAGS);
}

type ProjectCall =
  | { verb: 'list' }
  | { verb: 'update'; orgId: string; id: string; patch: ProjectPatch }
  | { verb: 'add'; orgId: string; id: string; patch: ProjectPatch; repository: string; forge: ForgeKind };

/** What `quire projects …` asks for, or a UsageError: needs nothing open. */
function projectCall([verb, target]: string[], values: FlagValues): ProjectCall {
  if (verb === 'list') return { verb };
  if (verb !== 'add' && verb !== 'update')
    throw new UsageError('quire projects add ORG/PROJECT --repo URL_OR_PATH [flags] | quire projects update ORG/PROJECT [flags] | quire projects list (see --help)');
  const [orgId, id] = orgAndName(target, 'project');
  const patch = projectPatch(values);
  if (verb === 'update') return { verb, orgId, id, patch };
  if (!patch.repository) throw new UsageError('--repo is required (a clone URL or a local path)');
  const forge = patch.forge ?? 'local';
  if (TOKEN_FORGES.includes(forge) && !patch.forgeTokenEnv)
    throw new UsageError(`--token-env VAR is required with --forge ${forge} (the name of the variable holding the token)`);
  return { verb, orgId, id, patch, repository: patch.repository, forge };
}

export const projects = defineCommand({
  summary: 'Projects: the docs repositories the agent changes. `update` changes only the flags given.',
  usage: ['add ORG/PROJECT --repo URL_OR_PATH [flags]', 'update ORG/PROJECT [flags]', 'list'],
  flags: projectFlags,
  opens: 'database',
  check: (positionals, values) => void projectCall(positionals, values),
  async run(positionals, values, ctx) {
    const call = projectCall(positionals, values);
    if (call.verb === 'list') {
      for (const p of (await ctx.tenants.listProjects()).map(projectView)) line(ctx, `${p.orgId}/${p.id}\t${p.forge}\t${p.repository}#${p.branch}`);
      return 0;
    }
    const { orgId, id, patch } = call;
    if (call.verb === 'update') {
      const project = await updateProject(ctx.tenants, orgId, id, patch);
      line(ctx, `project ${project.orgId}/${project.id} updated`);
      return 0;
    }
    const { forge } = call;
    const project = await suggestingUpdate('projects', id, () => ctx.tenants.getProject(id), createProject(ctx.tenants, {
      id,
      orgId,
      repository: call.repository,
      branch: patch.branch ?? 'main',
      docsPath: patch.docsPath ?? '',
      forge,
      ...(patch.forgeTokenEnv ? { forgeTokenEnv: patch.forgeTokenEnv } : {}),
      allowedModels: patch.allowedModels ?? [],
    }));
    line(ctx, `project ${project.orgId}/${project.id} ready`);
    return 0;
  },
});

const domainFlags: Record<string, FlagSpec> = {
  source: { type: 'string', value: 'URL_OR_PATH', help: 'git URL or local folder of the docs (required by add)' },
  branch: { type: 'string', value: 'B', help: 'branch to index (add: the default branch)' },
  'docs-path': { type: 'string', value: 'P', help: 'folder of the docs inside the source (add: the root)' },
  'base-url': { type: 'string', value: 'URL', help: 'public site the citations link to (add: https://DOMAIN.example.com)' },
  'include-hidden': { type: 'boolean', help: 'index pages marked hidden too' },
  support: { type: 'string', value: 'CONTACT', help: 'where the assistant sends readers it cannot help' },
  'allowed-origin': { type: 'string', multiple: true, value: 'URL', help: 'web origin whose pages may call the browser endpoints (none: any origin)' },
  'push-secret-env': { type: 'string', value: 'VAR', help: "the API's variable holding the secret of the domain's push hook (none: no push hook)" },
  'poll-minutes': { type: 'string', value: 'N|off', help: 'poll the branch every N minutes (5 to 1440), re-indexing a new head; off stops (opens Temporal)' },
  language: { type: 'string', value: 'TAG|none', help: "the docs' language, a BCP 47 tag (de, pt-BR) whose stemmer cuts pages and questions; none: English (update: a change re-indexes the domain, opens Temporal)" },
};

const DOMAIN_FLAGS: Record<string, string> = {
  source: 'source',
  branch: 'branch',
  docsPath: 'docs-path',
  baseUrl: 'base-url',
  includeHidden: 'include-hidden',
  supportContact: 'support',
  allowedOrigins: 'allowed-origin',
  pushSecretEnv: 'push-secret-env',
  pollMinutes: 'poll-minutes',
  language: 'language',
};

/** `--poll-minutes`: a whole number of minutes (the API's rule bounds it), `off` to stop polling. */
function pollMinutesOf(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'off') return null;
  if (!/^\d+$/.test(value)) throw new UsageError(`--poll-minutes must be a whole number of minutes or off, got '${value}'`);
  return Number(value);
}

/** `--language`: a tag in canonical case, as the API stores it (`checked` refuses one it does not take), `none` to remove it (English). */
function languageOf(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  const parsed = v.safeParse(domainLanguageSchema, value);
  return parsed.success ? parsed.output : value;
}

function domainPatch(values: FlagValues): DomainPatch {
  const baseUrl = str(values, 'base-url');
  const origins = list(values, 'allowed-origin');
  return checked(DomainPatchBody, given({
    source: str(values, 'source'),
    branch: str(values, 'branch'),
    docsPath: str(values, 'docs-path'),
    baseUrl,
    includeHidden: flag(values, 'include-hidden'),
    supportContact: str(values, 'support'),
    allowedOrigins: origins,
    pushSecretEnv: str(values, 'push-secret-env'),
    pollMinutes: pollMinutesOf(str(values, 'poll-minutes')),
    language: languageOf(str(values, 'language')),
  }), DOMAIN_FLAGS);
}

type DomainCall =
  | { verb: 'list' }
  | { verb: 'update'; orgId: string; id: string; patch: DomainPatch }
  | { verb: 'add'; orgId: string; id: string; patch: DomainPatch; source: string };

/** What `quire domains …` asks for, or a UsageError: needs nothing open. */
function domainCall([verb, target]: string[], values: FlagValues): DomainCall {
  if (verb === 'list') return { verb };
  if (verb !== 'add' && verb !== 'update')
    throw new UsageError('quire domains add ORG/DOMAIN --source URL_OR_PATH [flags] | quire domains update ORG/DOMAIN [flags] | quire domains list (see --help)');
  const [orgId, id] = orgAndName(target, 'domain');
  const patch = domainPatch(values);
  if (verb === 'update') return { verb, orgId, id, patch };
  if (!patch.source) throw new UsageError('--source is required (a git URL or a local folder)');
  return { verb, orgId, id, patch, source: patch.source };
}

export const domains = defineCommand({
  summary: 'Domains: the docs sites the assistant answers from. `update` changes only the flags given.',
  usage: ['add ORG/DOMAIN --source URL_OR_PATH [flags]', 'update ORG/DOMAIN [flags]', 'list'],
  flags: domainFlags,
  opens: 'database',
  check: (positionals, values) => void domainCall(positionals, values),
  run: (positionals, values, ctx) => runDomains(domainCall(positionals, values), ctx),
});

/**
 * `quire domains add|update … --poll-minutes|--language`: the same command, opening Temporal too
 * (main.ts picks it when either flag is given), as the domain's poll schedule follows its
 * pollMinutes, and an update that changes its language re-indexes it (stored pages keep the stems
 * of the language they were indexed in), as the admin API's PATCH does.
 */
export const domainsInTemporal = defineCommand({
  ...domains.spec,
  opens: 'platform',
  async run(positionals, values, ctx) {
    const call = domainCall(positionals, values);
    const before = call.verb === 'update' && call.patch.language !== undefined ? await ctx.tenants.getDomain(call.id) : undefined;
    const code = await runDomains(call, ctx);
    if (call.verb === 'list') return code;
    const domain = await ctx.tenants.getDomain(call.id);
    if (call.patch.pollMinutes !== undefined) {
      if (domain) await syncDomainPollSchedule(ctx.temporal, ctx.config.temporal.taskQueue, domain);
      line(ctx, domain?.pollMinutes ? `polling the branch every ${domain.pollMinutes} minutes` : 'not polling the branch');
    }
    const restore = (language: string | undefined) => updateDomain(ctx.tenants, call.orgId, call.id, { language: language ?? null });
    if (before && domain && (await reindexOnLanguageChange({ temporal: ctx.temporal, taskQueue: ctx.config.temporal.taskQueue, restore }, domain.id, before, domain))) {
      line(ctx, `the language changed: indexing ${domain.id} again (quire index ${domain.id} follows the run)`);
    }
    return code;
  },
});

async function runDomains(call: DomainCall, ctx: DatabaseContext): Promise<number> {
  if (call.verb === 'list') {
    for (const d of (await ctx.tenants.listDomains()).map(domainView))
      line(ctx, `${d.orgId}/${d.id}\t${d.source}\t${d.baseUrl}\t${d.allowedOrigins?.join(',') || 'any origin'}`);
    return 0;
  }
  const { orgId, id, patch } = call;
  if (call.verb === 'update') {
    const domain = await updateDomain(ctx.tenants, orgId, id, patch);
    line(ctx, `domain ${domain.orgId}/${domain.id} updated`);
    return 0;
  }
  const domain = await suggestingUpdate('domains', id, () => ctx.tenants.getDomain(id), createDomain(ctx.tenants, {
    id,
    orgId,
    source: call.source,
    ...(patch.branch ? { branch: patch.branch } : {}),
    docsPath: patch.docsPath ?? '',
    baseUrl: patch.baseUrl ?? `https://${id}.example.com`,
    includeHidden: patch.includeHidden ?? false,
    ...(patch.supportContact ? { supportContact: patch.supportContact } : {}),
    allowedOrigins: patch.allowedOrigins ?? [],
    ...(patch.pushSecretEnv ? { pushSecretEnv: patch.pushSecretEnv } : {}),
    ...(patch.pollMinutes ? { pollMinutes: patch.pollMinutes } : {}),
    ...(patch.language ? { language: patch.language } : {}),
  }));
  line(ctx, `domain ${domain.orgId}/${domain.id} ready`);
  return 0;
}

/**
 * --expires as an instant: a bare date (2030-01-01) is the end of that day, UTC (the key
 * authenticates through it); a date-time is taken as given.
 */
function expiryOf(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const start = new Date(`${value}T00:00:00Z`);
  // Date rolls 2030-02-30 over to March: only a day that reads back the same is one.
  if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== value) throw new UsageError(`--expires: '${value}' is not a date`);
  return new Date(start.getTime() + 86_400_000).toISOString();
}

type KeyCall =
  | { verb: 'create'; orgId: string; kind: 'admin' | 'assistant'; expires: string | undefined }
  | { verb: 'list'; orgId: string | undefined }
  | { verb: 'revoke'; keyId: string };

/** What `quire keys …` asks for, or a UsageError: needs nothing open. */
function keyCall([verb, keyId]: string[], values: FlagValues): KeyCall {
  const orgId = str(values, 'org');
  if (verb === 'create') {
    if (!orgId) throw new UsageError('--org ORG is required');
    const kind = str(values, 'kind');
    if (kind !== 'admin' && kind !== 'assistant') throw new UsageError('--kind must be admin or assistant');
    const given = str(values, 'expires');
    const expires = given === undefined ? undefined : expiryOf(given);
    checked(KeyCreateBody, { kind, ...(expires !== undefined ? { expiresAt: expires } : {}) }, { expiresAt: 'expires', kind: 'kind' });
    if (expires !== undefined && !(Date.parse(expires) > Date.now())) throw new UsageError('--expires must be an ISO 8601 date or date-time in the future');
    return { verb, orgId, kind, expires };
  }
  if (verb === 'list') return { verb, orgId };
  if (verb === 'revoke' && keyId) return { verb, keyId };
  throw new UsageError('quire keys create --org ORG --kind admin|assistant | quire keys list [--org ORG] | quire keys revoke KEY_ID');
}

export const keys = defineCommand({
  summary: 'API keys of an organisation; a secret is shown once, when created.',
  usage: ['create --org ORG --kind admin|assistant [--expires DATE]', 'list [--org ORG]', 'revoke KEY_ID'],
  flags: {
    org: { type: 'string', value: 'ORG', help: 'the organisation (required by create)' },
    kind: { type: 'string', value: 'admin|assistant', help: 'what the key may call (required by create)' },
    expires: { type: 'string', value: 'DATE', help: 'ISO 8601 date-time after which the key stops working, or a date: the end of that day, UTC (create: never)' },
  },
  opens: 'database',
  check: (positionals, values) => void keyCall(positionals, values),
  async run(positionals, values, ctx) {
    const call = keyCall(positionals, values);
    if (call.verb === 'create') {
      const { record, secret } = await ctx.tenants.createKey(call.orgId, call.kind, call.expires);
      line(ctx, `created ${record.kind} key ${record.id} for ${record.orgId}; it is shown once:`);
      line(ctx, secret);
      return 0;
    }
    if (call.verb === 'list') {
      // An organisation that does not exist would list nothing, as one without keys does.
      if (call.orgId !== undefined && !(await ctx.tenants.getOrg(call.orgId))) throw new Error(`unknown organisation '${call.orgId}'; quire orgs list names every one`);
      for (const k of await ctx.tenants.listKeys(call.orgId)) {
        const state = k.revokedAt ? `revoked ${k.revokedAt}` : k.expiresAt ? `expires ${k.expiresAt}` : 'active';
        line(ctx, [k.id, k.orgId, k.kind, k.hint, k.createdAt, state, k.lastUsedAt ? `last used ${k.lastUsedAt}` : 'never used'].join('\t'));
      }
      return 0;
    }
    const k = await ctx.tenants.revokeKey(call.keyId);
    line(ctx, `revoked ${k.id}`);
    return 0;
  },
});
