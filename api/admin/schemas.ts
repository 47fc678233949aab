import { isOwnSetting } from '../../core/config.js';
import * as v from 'valibot';
import { INDEX_ERROR_CODES } from '../../core/contracts/index.js';
import { IndexProgressSchema } from '../../core/contracts/index-progress-schema.js';
import { docsPathProblem } from '../../core/git/index.js';
import { DOMAIN_LANGUAGES, domainLanguageSchema, pollMinutesSchema, POLL_MINUTES, secretVariableName, TENANT_ID } from '../../core/tenants/index.js';

/** Request and response shapes of the admin and operator routes, which the routes validate with and operations.ts documents. */

const tenantId = v.pipe(v.string(), v.regex(TENANT_ID, 'must be 1-63 lower-case letters, digits and dashes, starting with a letter or digit'));
const text = (max: number) => v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(max, `must be at most ${max} characters`));
const webUrl = v.pipe(
  v.string(),
  v.url('must be an http(s) URL such as https://docs.example.com'),
  v.description('An http(s) URL.'),
  v.check((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), 'must be an http(s) URL such as https://docs.example.com'),
);
const isoInstant = v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 date-time such as 2027-01-31T00:00:00Z'));
const docsPath = v.pipe(
  v.string(),
  v.maxLength(500, 'must be at most 500 characters'),
  v.check((p) => docsPathProblem(p) === undefined, "must stay inside the repository: a folder path without '..'"),
);
const forge = v.picklist(['local', 'github', 'gitlab'], 'must be local, github or gitlab');
const envName = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be an environment variable name such as GITHUB_TOKEN'),
  v.check((name) => !isOwnSetting(name), "names one of Quire's own settings, never handed to a project or webhook"),
);
const pushSecretEnv = v.pipe(
  secretVariableName,
  v.description(
    "Name of the API's variable holding the secret that pushes to the domain's hook (`POST /v2/hooks/domains/{domainId}/push`) are signed with; never the secret. On a shared service (`QUIRE_ORG_SCOPED_VARIABLES`) one of the organisation's own: starting with its id in capitals (`ACME_` for `acme`). Absent: the hook answers 404.",
  ),
);
const pollMinutes = v.pipe(
  pollMinutesSchema,
  v.description(
    `Minutes between polls of the docs branch (${POLL_MINUTES.min} to ${POLL_MINUTES.max}), for a deployment no forge's push hook can reach: each poll reads the branch head with \`git ls-remote\` and re-indexes only when it differs from the commit last indexed. Absent: the branch is not polled.`,
  ),
);
const language = v.pipe(
  domainLanguageSchema,
  v.description(
    `The language the docs are written in, a BCP 47 tag (\`de\`, \`pt-BR\`) whose language is one of ${DOMAIN_LANGUAGES.join(', ')}; stored in canonical case. Its stemmer cuts the words of the pages that state no language of their own (a page's frontmatter \`language\` or \`lang\`, or the navigation's, is used for that page) and of the readers' questions, so \`Einstellungen\` finds \`Einstellung\`. Absent: English, every page stemmed as English. A change through the admin API or the CLI starts an index run of the domain (a run under way is joined), which re-reads every page; until it completes, pages keep the stems of the language they were indexed in.`,
  ),
);
const models = v.pipe(v.array(text(200)), v.maxLength(50, 'must list at most 50 models'));
const origins = v.pipe(v.array(webUrl), v.maxLength(100, 'must list at most 100 origins'));

/** A new project's or domain's id: global across organisations, so one another holds (or held) is taken. */
const newTenantId = (kind: string) =>
  v.pipe(
    tenantId,
    v.description(
      `Global across organisations: an id any organisation's ${kind} has (or another organisation's deleted one had) is taken (409 \`id_taken\`); this organisation's own deleted id may be used again.`,
    ),
  );

export const ProjectCreateBody = v.strictObject({
  id: newTenantId('project'),
  repository: text(2000),
  branch: v.optional(v.pipe(text(255), v.description('Default `main`.')), 'main'),
  docsPath: v.optional(docsPath, ''),
  forge: v.optional(v.pipe(forge, v.description('Default `local`.')), 'local'),
  forgeTokenEnv: v.optional(
    v.pipe(envName, v.description("Required with github and gitlab. On a shared service (`QUIRE_ORG_SCOPED_VARIABLES`) one of the organisation's own: starting with its id in capitals (`ACME_` for `acme`).")),
  ),
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
  id: newTenantId('domain'),
  source: text(2000),
  branch: v.optional(text(255)),
  docsPath: v.optional(docsPath, ''),
  baseUrl: webUrl,
  includeHidden: v.optional(v.boolean(), false),
  supportContact: v.optional(text(500)),
  allowedOrigins: v.optional(origins),
  pushSecretEnv: v.optional(pushSecretEnv),
  pollMinutes: v.optional(pollMinutes),
  language: v.optional(language),
});

export const DomainPatchBody = v.strictObject({
  source: v.optional(text(2000)),
  branch: v.optional(v.nullable(text(255))),
  docsPath: v.optional(docsPath),
  baseUrl: v.optional(webUrl),
  includeHidden: v.optional(v.boolean()),
  supportContact: v.optional(v.nullable(text(500))),
  allowedOrigins: v.optional(v.nullable(origins)),
  pushSecretEnv: v.optional(v.nullable(pushSecretEnv)),
  pollMinutes: v.optional(v.nullable(pollMinutes)),
  language: v.optional(v.nullable(language)),
});

export const KeyCreateBody = v.strictObject({
  kind: v.picklist(['admin', 'assistant'], 'must be admin or assistant'),
  expiresAt: v.optional(v.pipe(isoInstant, v.description('In the future; absent: never expires.'))),
});

const limit = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0), v.maxValue(1_000_000_000));
export const Limits = v.strictObject({
  agentCreatesPerHour: v.optional(limit),
  agentMessagesPerHour: v.optional(limit),
  assistantPerKeyPerMonth: v.optional(limit),
  assistantPerOrgPerHour: v.optional(limit),
  assistantPerIpPerDay: v.optional(limit),
});

export const OrgCreateBody = v.strictObject({ id: tenantId, limits: v.optional(Limits) });

const instant = v.pipe(v.string(), v.isoTimestamp());
const nullableInstant = v.nullable(instant);

export const ProjectView = v.object({
  id: v.string(),
  orgId: v.string(),
  repository: v.pipe(
    v.string(),
    v.description(
      'Clone URL (https://, ssh://, git@host:path) of the docs repository, or a path on the server that the operator set or that lies under a folder of `QUIRE_ADMIN_LOCAL_PATHS` and is no other organisation’s (others are refused, 400). A URL’s credentials show as `***` (`https://***@host/path`); sent back so in a change, they keep the stored ones.',
    ),
  ),
  branch: v.string(),
  docsPath: v.pipe(v.string(), v.description('Folder of the docs inside the repository, empty for the root.')),
  forge,
  forgeTokenEnv: v.pipe(v.optional(v.string()), v.description('Name of the variable holding the forge token; never the token.')),
  allowedModels: v.array(v.string()),
  createdAt: instant,
  updatedAt: instant,
});

export const DomainView = v.object({
  id: v.string(),
  orgId: v.string(),
  source: v.pipe(
    v.string(),
    v.description(
      'Git URL of the docs, or a folder on the server that the operator set or that lies under a folder of `QUIRE_ADMIN_LOCAL_PATHS` and is no other organisation’s (others are refused, 400). A URL’s credentials show as `***` (`https://***@host/path`); sent back so in a change, they keep the stored ones.',
    ),
  ),
  branch: v.optional(v.string()),
  docsPath: v.string(),
  baseUrl: v.pipe(v.string(), v.description('Public site the citations link to.')),
  includeHidden: v.boolean(),
  supportContact: v.optional(v.string()),
  allowedOrigins: v.pipe(v.optional(v.array(v.string())), v.description('Absent: any origin.')),
  pushSecretEnv: v.pipe(v.optional(v.string()), v.description("Name of the API's variable holding the push-hook secret; never the secret. Absent: the domain takes no pushes.")),
  pollMinutes: v.pipe(v.optional(v.number()), v.description('Minutes between polls of the docs branch (a new head re-indexes the domain). Absent: not polled.')),
  language: v.pipe(v.optional(v.string()), v.description("BCP 47 tag of the docs' language, whose stemmer cuts pages and questions. Absent: English.")),
  createdAt: instant,
  updatedAt: instant,
});

/** The languages a domain's `language` may name (its primary subtag), for a form to offer. */
export const DomainLanguages = v.object({
  languages: v.pipe(v.array(v.picklist(DOMAIN_LANGUAGES)), v.description('Primary subtags (`de`), sorted; a domain may add a region (`pt-BR`).')),
});

export const KeyView = v.object({
  id: v.pipe(v.string(), v.description('`key_` and 16 hex digits.')),
  kind: v.picklist(['admin', 'assistant']),
  prefix: v.pipe(v.string(), v.description('The first characters of the secret, to tell keys apart.')),
  createdAt: instant,
  lastUsedAt: v.pipe(nullableInstant, v.description('Recorded at most once a minute.')),
  expiresAt: nullableInstant,
  revokedAt: nullableInstant,
});

export const KeyCreated = v.object({ ...KeyView.entries, secret: v.pipe(v.string(), v.description('The key itself, shown this once.')) });

export const OrgView = v.object({
  id: v.string(),
  createdAt: instant,
  limits: v.optional(Limits),
  deletingSince: v.optional(v.pipe(instant, v.description('Set while a deletion is unfinished: its keys are revoked and its sessions ended; delete it again to finish.'))),
});

export const ReaderErasureBody = v.strictObject({
  fp: v.pipe(
    text(256),
    v.description('The reader’s fingerprint, as their client sent it with their questions (`fp` of the assistant routes, shown in the analytics conversations).'),
  ),
});

const erased = (what: string) => v.pipe(v.number(), v.integer(), v.minValue(0), v.description(what));
export const ReaderErased = v.object({
  threads: erased('Threads deleted with all their exchanges: those of the domain any of whose exchanges carries the fingerprint.'),
  answers: erased('Answer records deleted: those carrying the fingerprint, and those of the deleted threads.'),
  feedback: erased('Ratings deleted: those of the deleted threads.'),
});

export const OrgDeleted = v.object({
  id: v.string(),
  revokedKeys: v.pipe(v.number(), v.integer(), v.description('Keys in force that this request revoked (0 when an earlier, unfinished delete did).')),
  endedSessions: v.pipe(v.number(), v.integer(), v.description('Console sessions this request ended.')),
  projects: v.pipe(v.array(v.string()), v.description('Projects this request deleted, each as its own delete does (schedules and active jobs stopped first, then its record with its jobs, webhooks, automations and pull requests).')),
  domains: v.pipe(v.array(v.string()), v.description('Domains this request deleted, each as its own delete does.')),
});

const count = v.pipe(v.number(), v.integer());

export const IndexStatus = v.object({
  domainId: v.string(),
  workflowId: v.string(),
  runId: v.string(),
  status: v.picklist(['running', 'completed', 'failed', 'canceled', 'terminated', 'timed_out', 'continued_as_new', 'unknown']),
  startedAt: instant,
  closedAt: nullableInstant,
  progress: v.pipe(
    v.nullable(IndexProgressSchema),
    v.description('While running: page files of finished batches out of the total; null otherwise, or when no worker answered.'),
  ),
  commit: v.pipe(v.nullable(v.string()), v.description('The commit of the docs a completed run indexed; null while running, after a failure, or for a folder outside git.')),
  pages: v.pipe(v.nullable(v.number()), v.description('The pages a completed run indexed; null otherwise.')),
  error: v.pipe(
    v.nullable(v.string()),
    v.description(
      'Why a run that did not complete ended (failed, terminated, timed out, canceled), in one line; null otherwise. It names the source as configured (credentials masked) and the docs folder inside it, never a path of the server: a folder source is called a folder on the server, and any other absolute path or `file://` URL reads `[server path]`.',
    ),
  ),
  errorCode: v.pipe(
    v.nullable(v.picklist(INDEX_ERROR_CODES)),
    v.description(
      "What kind of failure `error` is, to act on without reading it: `checkout_failed` (the source could not be fetched), `docs_folder_missing` (the docs folder is not in the source), `docs_folder_outside` (it leads outside the repository), `unknown_domain`, the embedding model's `model_credentials`, `model_failed` or `model_unavailable`, how Temporal ended the run (`timed_out`, `terminated`, `canceled`), or `internal`; null when `error` is.",
    ),
  ),
  pollBackoff: v.pipe(
    v.nullable(v.object({ head: v.string(), failures: count, retryAt: instant })),
    v.description(
      "For a polled domain whose latest run a poll started and that failed or timed out: the branch head it was for, how many runs of that head failed in a row, and when a poll tries that head again (the wait doubles from pollMinutes with each failure, at most 24 hours; a new head is tried at the next poll). Null otherwise.",
    ),
  ),
});

export type ProjectViewOut = v.InferOutput<typeof ProjectView>;
export type DomainViewOut = v.InferOutput<typeof DomainView>;
export type KeyViewOut = v.InferOutput<typeof KeyView>;
export type KeyCreatedOut = v.InferOutput<typeof KeyCreated>;
export type OrgViewOut = v.InferOutput<typeof OrgView>;
export type IndexStatusOut = v.InferOutput<typeof IndexStatus>;
