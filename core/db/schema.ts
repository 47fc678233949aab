import type { ColumnType } from 'kysely';

/**
 * Every table Quire owns, declared once for the query builder. Both dialects store the same
 * values: times as ISO 8601 text (`*_at`) or epoch milliseconds (`at`), booleans as 0/1, nested
 * values as JSON text (`*_json`). The tables are created by the numbered files in `migrations/`.
 */
export interface OrgsTable {
  id: string;
  created_at: string;
  /** Per-organisation overrides of the default limits (JSON), or null. */
  limits_json: string | null;
  /** Set when its deletion began (keys revoked, sessions ended); the record goes once its projects and domains have. */
  deleting_since: string | null;
}

export interface ProjectsTable {
  id: string;
  org_id: string;
  repository: string;
  branch: string;
  docs_path: string;
  forge: string;
  forge_token_env: string | null;
  allowed_models_json: string;
  created_at: string;
  updated_at: string;
}

export interface DomainsTable {
  id: string;
  org_id: string;
  source: string;
  branch: string | null;
  docs_path: string;
  base_url: string;
  include_hidden: number;
  support_contact: string | null;
  /** JSON array of origins, or null for any origin. */
  allowed_origins_json: string | null;
  /** Name of the API's variable holding the push-hook secret; null: the domain takes no pushes. */
  push_secret_env: string | null;
  /** Minutes between polls of the docs branch; null: not polled. */
  poll_minutes: number | null;
  /** BCP 47 tag of the language the docs are written in; null: English. */
  language: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  kind: string;
  /** SHA-256 of the secret; the secret itself is never stored. */
  hash: string;
  hint: string;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
  last_used_at: string | null;
}

export interface JobsTable {
  id: string;
  project_id: string;
  status: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  revision: number;
  /** The whole job record (JSON), as GET shows it. */
  record_json: string;
}

export interface JobMessagesTable {
  project_id: string;
  job_id: string;
  id: string;
  prompt: string;
}

export interface JobEventsTable {
  job_id: string;
  seq: number;
  /** Names the event deterministically, so a retried write adds nothing. */
  key: string;
  project_id: string;
  type: string;
  time: string;
  data_json: string;
}

export interface WebhooksTable {
  project_id: string;
  id: string;
  url: string;
  events_json: string;
  /** `stored` (the value below) or `env` (a variable name in the worker's environment). */
  secret_kind: string;
  secret_value: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  delivery_id: string;
  project_id: string;
  webhook_id: string;
  status: string;
  updated_at: string;
  /** The delivery as its latest attempt left it (JSON). */
  delivery_json: string;
}

export interface AutomationsTable {
  project_id: string;
  id: string;
  created_at: string;
  record_json: string;
  last_run_json: string | null;
}

export interface ThreadsTable {
  org_id: string;
  thread_id: string;
  domain_id: string;
  key_hash: string | null;
  created_at: string;
  updated_at: string;
}

export interface ThreadExchangesTable {
  org_id: string;
  thread_id: string;
  /** 1, 2, 3… per thread. */
  position: number;
  exchange_json: string;
}

export interface AnswersTable {
  domain_id: string;
  id: string;
  at: number;
  thread_id: string | null;
  caller: string;
  surface: string;
  resolution: string;
  category: string | null;
  answer_json: string;
}

export interface AnswerDaysTable {
  domain_id: string;
  day: number;
  caller: string;
  surface: string;
  category: string;
  resolution: string;
  n: number;
}

export interface SearchesTable {
  domain_id: string;
  id: string;
  at: number;
  query: string;
  hits: number;
  caller: string;
}

export interface ClicksTable {
  domain_id: string;
  search_id: string;
  path: string;
  at: number;
}

export interface FeedbackTable {
  domain_id: string;
  message_id: string;
  thread_id: string;
  at: number;
  helpful: number;
  comment: string | null;
}

export interface GapJobsTable {
  domain_id: string;
  gap_id: string;
  project_id: string;
  job_id: string;
  at: number;
}

export interface PullsTable {
  project_id: string;
  number: number;
  job_id: string;
  branch: string;
  base: string;
  title: string;
  body: string;
  draft: number;
  state: string;
  /** JSON array of `{body, createdAt}`. */
  comments_json: string;
  view_token_hash: string | null;
  created_at: string;
  updated_at: string;
}

export interface EmbeddingsTable {
  text_hash: string;
  embedder: string;
  vector: Buffer;
}

/** A signed-in console: the cookie's token is never stored, only its SHA-256 (hex). */
export interface ConsoleSessionsTable {
  token_hash: string;
  org_id: string;
  /** The admin key that signed in; revoking it ends the session. */
  key_id: string;
  /** Sent back in `X-CSRF-Token` with every state-changing request. */
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

/** Page views per day, path and traffic (`human` | `ai`). */
export interface PageViewDaysTable {
  domain_id: string;
  day: number;
  path: string;
  traffic: string;
  n: number;
}

/** One visitor (a hash under the day's salt) who viewed a path that day. */
export interface PageVisitorsTable {
  domain_id: string;
  day: number;
  path: string;
  traffic: string;
  visitor: string;
}

/** The id of a deleted organisation, project or domain, kept for the organisation that had it (see migrations 009, 011). */
export interface RetiredIdsTable {
  kind: 'organisation' | 'project' | 'domain';
  id: string;
  org_id: string;
  retired_at: string;
  /** A domain's: set while its index is being removed (migration 012), null once it is gone. */
  clearing_since: string | null;
}

/** The current day's salt for visitor hashes; earlier ones are deleted. */
export interface VisitorSaltsTable {
  day: number;
  salt: string;
}

/** A periodic chore of the whole deployment, held by one process until `expires_at` (ISO 8601). */
export interface LeasesTable {
  name: string;
  holder: string;
  expires_at: string;
}

/**
 * Set when a project's delete began (migration 015); only its delete writes it, never a write of the
 * record (ProjectsTable is what those write), so a project's row is read with it but written without.
 */
export interface ProjectDeletionColumn {
  deleting_since: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface Schema {
  orgs: OrgsTable;
  projects: ProjectsTable & ProjectDeletionColumn;
  domains: DomainsTable;
  api_keys: ApiKeysTable;
  jobs: JobsTable;
  job_messages: JobMessagesTable;
  job_events: JobEventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  automations: AutomationsTable;
  threads: ThreadsTable;
  thread_exchanges: ThreadExchangesTable;
  answers: AnswersTable;
  answer_days: AnswerDaysTable;
  searches: SearchesTable;
  clicks: ClicksTable;
  feedback: FeedbackTable;
  gap_jobs: GapJobsTable;
  pulls: PullsTable;
  embeddings: EmbeddingsTable;
  page_view_days: PageViewDaysTable;
  page_visitors: PageVisitorsTable;
  visitor_salts: VisitorSaltsTable;
  console_sessions: ConsoleSessionsTable;
  retired_ids: RetiredIdsTable;
  leases: LeasesTable;
}
