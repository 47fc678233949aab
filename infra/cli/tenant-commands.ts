import { parseArgs } from 'node:util';
import { UsageError, type CliContext, type Command } from './context.js';
import { TOKEN_FORGES, type ForgeKind } from '../../core/tenants/index.js';

const FORGES: readonly ForgeKind[] = ['local', 'github', 'gitlab'];

function orgAndName(arg: string | undefined, what: string): [string, string] {
  const m = /^([^/\s]+)\/([^/\s]+)$/.exec(arg ?? '');
  if (!m) throw new UsageError(`expected ORG/${what.toUpperCase()}, got '${arg ?? ''}'`);
  return [m[1]!, m[2]!];
}

function line(ctx: CliContext, text: string): void {
  ctx.out.write(text + '\n');
}

/** `quire projects|domains list`, or `… add ORG/ID` with the command's options: the shape both share. */
async function listOrAdd(
  ctx: CliContext,
  [verb, target]: string[],
  what: 'project' | 'domain',
  usage: string,
  steps: { list: () => Promise<string[]>; add: (orgId: string, id: string) => Promise<{ orgId: string; id: string }> },
): Promise<number> {
  if (verb === 'list') {
    for (const text of await steps.list()) line(ctx, text);
    return 0;
  }
  if (verb !== 'add') throw new UsageError(usage);
  const [orgId, id] = orgAndName(target, what);
  const added = await steps.add(orgId, id);
  line(ctx, `${what} ${added.orgId}/${added.id} ready`);
  return 0;
}

export const orgs: Command = async (args, ctx) => {
  const [verb, id] = args;
  if (verb === 'add' && id) {
    const org = await ctx.tenants.addOrg(id);
    line(ctx, `organisation ${org.id} ready`);
    return 0;
  }
  if (verb === 'list') {
    for (const org of await ctx.tenants.listOrgs()) line(ctx, org.id);
    return 0;
  }
  throw new UsageError('quire orgs add ORG | quire orgs list');
};

export const projects: Command = async (args, ctx) => {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      repo: { type: 'string' },
      branch: { type: 'string', default: 'main' },
      'docs-path': { type: 'string', default: '' },
      forge: { type: 'string', default: 'local' },
      'token-env': { type: 'string' },
      models: { type: 'string', default: '' },
    },
  });
  const usage = 'quire projects add ORG/PROJECT --repo URL_OR_PATH [--branch B] [--docs-path P] [--forge local|github|gitlab] [--token-env VAR] [--models a,b]';
  return listOrAdd(ctx, positionals, 'project', usage, {
    list: async () => (await ctx.tenants.listProjects()).map((p) => `${p.orgId}/${p.id}\t${p.forge}\t${p.repository}#${p.branch}`),
    add: async (orgId, id) => {
      if (!values.repo) throw new UsageError('--repo is required (a clone URL or a local path)');
      const forge = FORGES.find((f) => f === values.forge);
      if (!forge) throw new UsageError('--forge must be local, github or gitlab');
      if (TOKEN_FORGES.includes(forge) && !values['token-env'])
        throw new UsageError(`--token-env VAR is required with --forge ${forge} (the name of the variable holding the token)`);
      return ctx.tenants.putProject({
        id,
        orgId,
        repository: values.repo,
        branch: values.branch,
        docsPath: values['docs-path'],
        forge,
        ...(values['token-env'] ? { forgeTokenEnv: values['token-env'] } : {}),
        allowedModels: values.models.split(',').map((m) => m.trim()).filter(Boolean),
      });
    },
  });
};

export const domains: Command = async (args, ctx) => {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      source: { type: 'string' },
      branch: { type: 'string' },
      'docs-path': { type: 'string', default: '' },
      'base-url': { type: 'string' },
      'include-hidden': { type: 'boolean', default: false },
      support: { type: 'string' },
      'allowed-origin': { type: 'string', multiple: true, default: [] },
    },
  });
  const usage =
    'quire domains add ORG/DOMAIN --source URL_OR_PATH [--branch B] [--base-url URL] [--docs-path P] [--include-hidden] [--support CONTACT] [--allowed-origin URL]…';
  return listOrAdd(ctx, positionals, 'domain', usage, {
    list: async () =>
      (await ctx.tenants.listDomains()).map(
        (d) => `${d.orgId}/${d.id}\t${d.source}\t${d.baseUrl}\t${d.allowedOrigins?.join(',') || 'any origin'}`,
      ),
    add: async (orgId, id) => {
      if (!values.source) throw new UsageError('--source is required (a git URL or a local folder)');
      const baseUrl = values['base-url'] ?? `https://${id}.example.com`;
      if (!URL.canParse(baseUrl)) throw new UsageError(`--base-url must be a URL, got '${baseUrl}'`);
      const bad = values['allowed-origin'].find((o) => !/^https?:\/\//i.test(o) || !URL.canParse(o));
      if (bad !== undefined) throw new UsageError(`--allowed-origin must be an http(s) URL such as https://docs.example.com, got '${bad}'`);
      return ctx.tenants.putDomain({
        id,
        orgId,
        source: values.source,
        ...(values.branch ? { branch: values.branch } : {}),
        docsPath: values['docs-path'],
        baseUrl,
        includeHidden: values['include-hidden'],
        ...(values.support ? { supportContact: values.support } : {}),
        allowedOrigins: values['allowed-origin'],
      });
    },
  });
};

export const keys: Command = async (args, ctx) => {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { org: { type: 'string' }, kind: { type: 'string' } },
  });
  const verb = positionals[0];
  if (verb === 'create') {
    if (!values.org) throw new UsageError('--org ORG is required');
    if (values.kind !== 'admin' && values.kind !== 'assistant') throw new UsageError('--kind must be admin or assistant');
    const { record, secret } = await ctx.tenants.createKey(values.org, values.kind);
    line(ctx, `created ${record.kind} key ${record.id} for ${record.orgId}; it is shown once:`);
    line(ctx, secret);
    return 0;
  }
  if (verb === 'list') {
    for (const k of await ctx.tenants.listKeys(values.org)) {
      line(ctx, [k.id, k.orgId, k.kind, k.hint, k.createdAt, k.revokedAt ? `revoked ${k.revokedAt}` : 'active'].join('\t'));
    }
    return 0;
  }
  if (verb === 'revoke' && positionals[1]) {
    const k = await ctx.tenants.revokeKey(positionals[1]);
    line(ctx, `revoked ${k.id}`);
    return 0;
  }
  throw new UsageError('quire keys create --org ORG --kind admin|assistant | quire keys list [--org ORG] | quire keys revoke KEY_ID');
};
