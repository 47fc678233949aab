import fs from 'node:fs/promises';
import * as v from 'valibot';
import YAML from 'yaml';
import { TENANT_ID } from './keys.js';
import { secretVariableName } from './secret-variable.js';
import { pollMinutesSchema } from './poll-minutes.js';
import { domainLanguageSchema } from './domain-language.js';
import { TenantConflictError, type Domain, type TenantStore } from './types.js';
import { JOB_EVENT_TYPES } from '../jobs/job-events.js';
import { webhookId, type WebhookStore } from '../webhooks/index.js';

const id = v.pipe(v.string(), v.regex(TENANT_ID, 'must be 1-63 lower-case letters, digits or dashes'));
const count = v.pipe(v.number(), v.integer(), v.minValue(1));

const ProjectSeed = v.strictObject({
  id,
  repository: v.pipe(v.string(), v.minLength(1)),
  branch: v.optional(v.pipe(v.string(), v.minLength(1)), 'main'),
  docsPath: v.optional(v.string(), ''),
  forge: v.optional(v.picklist(['local', 'github', 'gitlab']), 'local'),
  /** Name of the environment variable with the forge token; the token never goes in the file. */
  tokenEnv: v.optional(secretVariableName),
  allowedModels: v.optional(v.array(v.pipe(v.string(), v.minLength(1))), []),
  /** Where the project's job events are POSTed; each signed with the secret in the named variable. */
  webhooks: v.optional(
    v.array(
      v.strictObject({
        url: v.pipe(
          v.string(),
          v.url('must be a URL'),
          v.regex(/^https?:/i, 'must be an http(s) URL'),
          v.check((s) => !URL.canParse(s) || (!new URL(s).username && !new URL(s).password), 'must not hold credentials (user:password@)'),
        ),
        secretEnv: secretVariableName,
        events: v.optional(v.array(v.picklist(JOB_EVENT_TYPES)), []),
      }),
    ),
    [],
  ),
});

const DomainSeed = v.strictObject({
  id,
  source: v.pipe(v.string(), v.minLength(1)),
  branch: v.optional(v.pipe(v.string(), v.minLength(1))),
  docsPath: v.optional(v.string(), ''),
  baseUrl: v.pipe(v.string(), v.url('must be a URL')),
  includeHidden: v.optional(v.boolean(), false),
  supportContact: v.optional(v.string()),
  /** Web origins whose pages may call the assistant from a browser; none listed: any origin. */
  allowedOrigins: v.optional(
    v.array(v.pipe(v.string(), v.url('must be a URL'), v.regex(/^https?:/i, 'must be an http(s) URL'))),
    [],
  ),
  /** The API's variable holding the secret of the domain's push hook; absent: the domain takes no pushes. */
  pushSecretEnv: v.optional(secretVariableName),
  /** Minutes between polls of the docs branch; absent: not polled. */
  pollMinutes: v.optional(pollMinutesSchema),
  /** The docs' language (a BCP 47 tag); absent: English. */
  language: v.optional(domainLanguageSchema),
});

export const SeedSchema = v.strictObject({
  organisations: v.array(
    v.strictObject({
      id,
      limits: v.optional(
        v.strictObject({
          agentCreatesPerHour: v.optional(count),
          agentMessagesPerHour: v.optional(count),
          assistantPerKeyPerMonth: v.optional(count),
          assistantPerOrgPerHour: v.optional(count),
          assistantPerIpPerDay: v.optional(count),
        }),
      ),
      projects: v.optional(v.array(ProjectSeed), []),
      domains: v.optional(v.array(DomainSeed), []),
    }),
  ),
});

export class SeedFileError extends Error {
  override name = 'SeedFileError';
}

/** Reads and checks a seed file (YAML or JSON); every error names the file, the field and the rule. */
export async function readSeedFile(file: string): Promise<v.InferOutput<typeof SeedSchema>> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new SeedFileError(`seed file ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let raw: unknown;
  try {
    raw = YAML.parse(text);
  } catch (err) {
    throw new SeedFileError(`seed file ${file}: not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  const parsed = v.safeParse(SeedSchema, raw, { abortEarly: false });
  if (!parsed.success) {
    const lines = parsed.issues.map((i) => `${i.path?.map((p) => String(p.key)).join('.') || '(root)'}: ${i.message}`);
    throw new SeedFileError(`seed file ${file}:\n  ${lines.join('\n  ')}`);
  }
  return parsed.output;
}

/** What applying a seed file wrote: every domain it declares, and those whose language it changed, each with the language it had. */
export interface SeedOutcome {
  domains: Domain[];
  languageChanges: Array<{ domain: Domain; before: string | undefined }>;
}

/**
 * Creates or updates every organisation, project and domain of the file, and the projects' webhooks
 * when given their store. Answers the domains it wrote, whose poll schedules the caller then sets,
 * and those whose language it changed, which the caller indexes again (see `followSeed`).
 */
export async function applySeedFile(file: string, tenants: TenantStore, webhooks?: WebhookStore): Promise<SeedOutcome> {
  const seed = await readSeedFile(file);
  const domains: Domain[] = [];
  const languageChanges: SeedOutcome['languageChanges'] = [];
  for (const org of seed.organisations) {
    try {
      await tenants.addOrg(org.id, org.limits);
    } catch (err) {
      // A deleted (or half-deleted) organisation the file still declares: say where, and what to do.
      if (err instanceof TenantConflictError) throw new SeedFileError(`seed file ${file}: organisations: ${org.id}: ${err.message}; remove it from the file`);
      throw err;
    }
    for (const p of org.projects) {
      await tenants.putProject({
        id: p.id,
        orgId: org.id,
        repository: p.repository,
        branch: p.branch,
        docsPath: p.docsPath,
        forge: p.forge,
        ...(p.tokenEnv ? { forgeTokenEnv: p.tokenEnv } : {}),
        allowedModels: p.allowedModels,
      });
      for (const w of webhooks ? p.webhooks : []) {
        const createdAt = new Date().toISOString();
        await webhooks?.put({ id: webhookId(p.id, w.url), projectId: p.id, url: w.url, events: w.events, secret: { kind: 'env', name: w.secretEnv }, createdAt });
      }
    }
    for (const d of org.domains) {
      // A domain indexed before: its pages keep the stems of the language they were read in.
      const previous = await tenants.getDomain(d.id);
      const domain = await tenants.putDomain({
        id: d.id,
        orgId: org.id,
        source: d.source,
        ...(d.branch ? { branch: d.branch } : {}),
        docsPath: d.docsPath,
        baseUrl: d.baseUrl,
        includeHidden: d.includeHidden,
        ...(d.supportContact ? { supportContact: d.supportContact } : {}),
        allowedOrigins: d.allowedOrigins,
        ...(d.pushSecretEnv ? { pushSecretEnv: d.pushSecretEnv } : {}),
        ...(d.pollMinutes ? { pollMinutes: d.pollMinutes } : {}),
        ...(d.language ? { language: d.language } : {}),
      });
      domains.push(domain);
      if (previous && previous.language !== domain.language) languageChanges.push({ domain, before: previous.language });
    }
  }
  return { domains, languageChanges };
}
