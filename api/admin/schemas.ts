import * as v from 'valibot';
import { TENANT_ID } from '../../core/tenants/index.js';

/** Request and response shapes of the admin and operator routes; the OpenAPI document follows them. */

const tenantId = v.pipe(v.string(), v.regex(TENANT_ID, 'must be 1-63 lower-case letters, digits and dashes, starting with a letter or digit'));
const text = (max: number) => v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(max, `must be at most ${max} characters`));
const webUrl = v.pipe(
  v.string(),
  v.check((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), 'must be an http(s) URL such as https://docs.example.com'),
);
const isoInstant = v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 date-time such as 2027-01-31T00:00:00Z'));
const docsPath = v.pipe(v.string(), v.maxLength(500, 'must be at most 500 characters'));
const forge = v.picklist(['local', 'github', 'gitlab'], 'must be local, github or gitlab');
const envName = v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be an environment variable name such as GITHUB_TOKEN'));
const models = v.pipe(v.array(text(200)), v.maxLength(50, 'must list at most 50 models'));
const origins = v.pipe(v.array(webUrl), v.maxLength(100, 'must list at most 100 origins'));

export const ProjectCreateBody = v.strictObject({
  id: tenantId,
  repository: text(2000),
  branch: v.optional(text(255), 'main'),
  docsPath: v.optional(docsPath, ''),
  forge: v.optional(forge, 'local'),
  forgeTokenEnv: v.optional(envName),
  allowedModels: v.optional(models, []),
});

/** PATCH: only the fields named change; null removes an optional field. */
export const ProjectPatchBody = v.strictObject({
  repository: v.optional(text(2000)),
  branch: v.optional(text(255)),
  docsPath: v.optional(docsPath),
  forge: v.optional(forge),
  forgeTokenEnv: v.optional(v.nullable(envName)),
  allowedModels: v.optional(models),
});

export const DomainCreateBody = v.strictObject({
  id: tenantId,
  source: text(2000),
  branch: v.optional(text(255)),
  docsPath: v.optional(docsPath, ''),
  baseUrl: webUrl,
  includeHidden: v.optional(v.boolean(), false),
  supportContact: v.optional(text(500)),
  allowedOrigins: v.optional(origins),
});

export const DomainPatchBody = v.strictObject({
  source: v.optional(text(2000)),
  branch: v.optional(v.nullable(text(255))),
  docsPath: v.optional(docsPath),
  baseUrl: v.optional(webUrl),
  includeHidden: v.optional(v.boolean()),
  supportContact: v.optional(v.nullable(text(500))),
  allowedOrigins: v.optional(v.nullable(origins)),
});

export const KeyCreateBody = v.strictObject({
  kind: v.picklist(['admin', 'assistant'], 'must be admin or assistant'),
  expiresAt: v.optional(isoInstant),
});

const limit = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0), v.maxValue(1_000_000_000));
export const OrgCreateBody = v.strictObject({
  id: tenantId,
  limits: v.optional(
    v.strictObject({
      agentCreatesPerHour: v.optional(limit),
      agentMessagesPerHour: v.optional(limit),
      assistantPerKeyPerMonth: v.optional(limit),
      assistantPerOrgPerHour: v.optional(limit),
      assistantPerIpPerDay: v.optional(limit),
    }),
  ),
});

const instant = v.string();
const nullableInstant = v.nullable(instant);

export const ProjectView = v.object({
  id: v.string(),
  orgId: v.string(),
  repository: v.string(),
  branch: v.string(),
  docsPath: v.string(),
  forge,
  forgeTokenEnv: v.optional(v.string()),
  allowedModels: v.array(v.string()),
  createdAt: instant,
  updatedAt: instant,
});

export const DomainView = v.object({
  id: v.string(),
  orgId: v.string(),
  source: v.string(),
  branch: v.optional(v.string()),
  docsPath: v.string(),
  baseUrl: v.string(),
  includeHidden: v.boolean(),
  supportContact: v.optional(v.string()),
  allowedOrigins: v.optional(v.array(v.string())),
  createdAt: instant,
  updatedAt: instant,
});

export const KeyView = v.object({
  id: v.string(),
  kind: v.picklist(['admin', 'assistant']),
  prefix: v.string(),
  createdAt: instant,
  lastUsedAt: nullableInstant,
  expiresAt: nullableInstant,
  revokedAt: nullableInstant,
});

export const KeyCreated = v.object({ ...KeyView.entries, secret: v.string() });

export const OrgView = v.object({
  id: v.string(),
  createdAt: instant,
  limits: v.optional(v.record(v.string(), v.number())),
});

export const IndexStatus = v.object({
  domainId: v.string(),
  workflowId: v.string(),
  runId: v.string(),
  status: v.picklist(['running', 'completed', 'failed', 'canceled', 'terminated', 'timed_out', 'continued_as_new', 'unknown']),
  startedAt: instant,
  closedAt: nullableInstant,
  progress: v.nullable(
    v.object({ phase: v.picklist(['checkout', 'indexing', 'cleanup', 'done']), done: v.number(), total: v.number(), embedded: v.number() }),
  ),
  commit: v.pipe(v.nullable(v.string()), v.description('The commit of the docs a completed run indexed; null while running, after a failure, or for a folder outside git.')),
  pages: v.pipe(v.nullable(v.number()), v.description('The pages a completed run indexed; null otherwise.')),
});

export type ProjectViewOut = v.InferOutput<typeof ProjectView>;
export type DomainViewOut = v.InferOutput<typeof DomainView>;
export type KeyViewOut = v.InferOutput<typeof KeyView>;
export type KeyCreatedOut = v.InferOutput<typeof KeyCreated>;
export type OrgViewOut = v.InferOutput<typeof OrgView>;
export type IndexStatusOut = v.InferOutput<typeof IndexStatus>;
