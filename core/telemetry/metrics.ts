import { Counter, Histogram, Registry } from 'prom-client';

/** Seconds buckets for request-sized work (HTTP, retrieval, the database). */
const FAST = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds buckets for model calls and first tokens. */
const MODEL = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 120];
/** Seconds buckets for an agent turn (minutes long). */
const TURN = [1, 5, 15, 30, 60, 120, 300, 600, 900, 1800];

export interface MetricsOptions {
  /** Adds an `org` label to the request and answer series (off by default: one series per organisation). */
  orgLabel: boolean;
}

/** HTTP requests, labelled by the matched route's template, never the path. */
export interface HttpMetrics {
  observeRequest(labels: { method: string; route: string; status: number; org: string | undefined }, seconds: number): void;
}

/** The assistant's answers: time to the first token and how each ended. */
export interface AssistantMetrics {
  firstToken(seconds: number): void;
  answered(outcome: AnswerOutcome, org: string | undefined): void;
}

/** `answered`: the model (or the extractive answerer) finished; `failed`: it did not; `aborted`: the reader left. */
export type AnswerOutcome = 'answered' | 'failed' | 'aborted';

export interface RetrievalMetrics {
  observeSearch(seconds: number): void;
}

/** Which subject's allowance refused the request. */
export type LimitSubject = 'key' | 'org' | 'ip' | 'project';

export interface LimitMetrics {
  rejected(limit: LimitSubject): void;
}

export interface DbMetrics {
  /** `operation` is a fixed name (`select`, `insert`, a statement's purpose), never SQL text. */
  observeQuery(operation: string, seconds: number): void;
}

export interface ModelMetrics {
  observeRequest(operation: 'chat' | 'stream' | 'embed', seconds: number): void;
  tokens(model: string, direction: 'input' | 'output', count: number): void;
}

export interface AgentMetrics {
  /** `outcome` is the turn's stop reason, or `failed` when the activity threw. */
  turnEnded(outcome: string, seconds: number): void;
  pullRequest(created: boolean): void;
}

export interface WebhookMetrics {
  delivered(outcome: 'delivered' | 'failed' | 'gave_up'): void;
}

export interface IndexMetrics {
  pagesIndexed(count: number): void;
}

/** A workflow call a Temporal client makes (the interceptor's method names), a bounded label. */
export type TemporalCall = 'start' | 'startUpdateWithStart' | 'startUpdate' | 'signal' | 'signalWithStart' | 'query' | 'describe' | 'terminate' | 'cancel';

/**
 * How a Temporal call ended: `not_found` (no such workflow), `already_started` (its id is taken) and
 * `rejected` (an update's handler refused it) are answers about a workflow; `error` is Temporal
 * unreachable, refusing the call or timing out.
 */
export type TemporalCallOutcome = 'ok' | 'not_found' | 'already_started' | 'rejected' | 'error';

/** The calls a process makes to Temporal: where a slow job route's time goes, Quire or Temporal. */
export interface TemporalMetrics {
  observeCall(call: TemporalCall, outcome: TemporalCallOutcome, seconds: number): void;
}

/** Every metric Quire records, each defined once; a process hands each consumer the slice it records. */
export interface QuireMetrics {
  registry: Registry;
  http: HttpMetrics;
  assistant: AssistantMetrics;
  retrieval: RetrievalMetrics;
  limits: LimitMetrics;
  db: DbMetrics;
  model: ModelMetrics;
  agent: AgentMetrics;
  webhooks: WebhookMetrics;
  indexing: IndexMetrics;
  temporal: TemporalMetrics;
}

/** Registers every Quire metric on a registry the process owns (never prom-client's global one). */
export function createMetrics(options: MetricsOptions, registry = new Registry()): QuireMetrics {
  const orgLabels = options.orgLabel ? (['org'] as const) : ([] as const);
  const orgOf = (org: string | undefined) => (options.orgLabel ? { org: org ?? 'none' } : {});
  const registers = [registry];

  // The series observed on every request, every statement and every Temporal call take their observations in bulk (see ObservationBatches).
  const httpBatches = new ObservationBatches();
  const dbBatches = new ObservationBatches();
  const temporalBatches = new ObservationBatches();
  const httpDuration = new Histogram({
    name: 'quire_http_request_duration_seconds',
    help: 'HTTP requests of the API by method, route template and status.',
    labelNames: ['method', 'route', 'status', ...orgLabels],
    buckets: FAST,
    registers,
    collect: httpBatches.flush,
  });
  const firstToken = new Histogram({
    name: 'quire_assistant_first_token_seconds',
    help: 'Time from the start of an assistant answer (passages found) to its first token.',
    buckets: MODEL,
    registers,
  });
  const answers = new Counter({
    name: 'quire_assistant_answers_total',
    help: 'Assistant answers by how they ended.',
    labelNames: ['outcome', ...orgLabels],
    registers,
  });
  const retrieval = new Histogram({
    name: 'quire_retrieval_duration_seconds',
    help: 'Searches of the document index (keyword, vector and fusion).',
    buckets: FAST,
    registers,
  });
  const rejections = new Counter({
    name: 'quire_rate_limit_rejections_total',
    help: 'Requests refused by a rate limit, by the subject whose allowance was spent.',
    labelNames: ['limit'],
    registers,
  });
  const db = new Histogram({
    name: 'quire_db_query_duration_seconds',
    help: 'Database queries by operation.',
    labelNames: ['operation'],
    buckets: FAST,
    registers,
    collect: dbBatches.flush,
  });
  const modelDuration = new Histogram({
    name: 'quire_model_request_duration_seconds',
    help: 'Requests to the language model by operation.',
    labelNames: ['operation'],
    buckets: MODEL,
    registers,
  });
  const modelTokens = new Counter({
    name: 'quire_model_tokens_total',
    help: 'Tokens the language model reported, by model and direction (input, output).',
    labelNames: ['model', 'direction'],
    registers,
  });
  const turns = new Counter({
    name: 'quire_agent_turns_total',
    help: 'Agent turns by outcome (their stop reason, or failed).',
    labelNames: ['outcome'],
    registers,
  });
  const turnDuration = new Histogram({
    name: 'quire_agent_turn_duration_seconds',
    help: 'Duration of agent turns, failed ones included.',
    buckets: TURN,
    registers,
  });
  const pulls = new Counter({
    name: 'quire_pull_requests_total',
    help: 'Pull requests opened (created) or updated by the agent.',
    labelNames: ['action'],
    registers,
  });
  const deliveries = new Counter({
    name: 'quire_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome.',
    labelNames: ['outcome'],
    registers,
  });
  const pages = new Counter({ name: 'quire_index_pages_total', help: 'Documentation pages indexed.', registers });
  const temporalCalls = new Histogram({
    name: 'quire_temporal_request_duration_seconds',
    help: 'Workflow calls this process made to Temporal (start, update, signal, query, describe, terminate, cancel), by outcome.',
    labelNames: ['operation', 'outcome'],
    buckets: FAST,
    registers,
    collect: temporalBatches.flush,
  });

  // One child per label set, made on first use: prom-client would otherwise hash a label object on every observation.
  const httpChild = children((method: string, route: string, status: number, org: string | undefined) =>
    httpBatches.of(httpDuration.labels({ method, route, status: String(status), ...orgOf(org) })),
  );
  const answerChild = children((outcome: AnswerOutcome, org: string | undefined) => answers.labels({ outcome, ...orgOf(org) }));
  const rejectionChild = children((limit: LimitSubject) => rejections.labels({ limit }));
  const dbChild = children((operation: string) => dbBatches.of(db.labels({ operation })));
  const modelChild = children((operation: string) => modelDuration.labels({ operation }));
  const tokenChild = children((model: string, direction: string) => modelTokens.labels({ model, direction }));
  const turnChild = children((outcome: string) => turns.labels({ outcome }));
  const deliveryChild = children((outcome: string) => deliveries.labels({ outcome }));
  const temporalChild = children((operation: TemporalCall, outcome: TemporalCallOutcome) => temporalBatches.of(temporalCalls.labels({ operation, outcome })));

  // Every bounded outcome a rate or an increase is alerted on exists at 0 from the start: a series
  // born at 1 reads as no increase, so a process's first failure (a rare webhook given up) would
  // never fire its alert. With the org label, answers are made per organisation as they come.
  for (const outcome of ['delivered', 'failed', 'gave_up'] as const) deliveryChild(outcome).inc(0);
  for (const outcome of ['finish', 'failed'] as const) turnChild(outcome).inc(0);
  if (!options.orgLabel) for (const outcome of ['answered', 'failed', 'aborted'] as const) answerChild(outcome, undefined).inc(0);

  return {
    registry,
    http: {
      observeRequest: ({ method, route, status, org }, seconds) => httpChild(method, route, status, options.orgLabel ? org : undefined).add(seconds),
    },
    assistant: {
      firstToken: (seconds) => firstToken.observe(seconds),
      answered: (outcome, org) => answerChild(outcome, options.orgLabel ? org : undefined).inc(),
    },
    retrieval: { observeSearch: (seconds) => retrieval.observe(seconds) },
    limits: { rejected: (limit) => rejectionChild(limit).inc() },
    db: { observeQuery: (operation, seconds) => dbChild(operation).add(seconds) },
    model: {
      observeRequest: (operation, seconds) => modelChild(operation).observe(seconds),
      tokens: (model, direction, count) => {
        if (count > 0) tokenChild(model, direction).inc(count);
      },
    },
    agent: {
      turnEnded: (outcome, seconds) => {
        turnChild(outcome).inc();
        turnDuration.observe(seconds);
      },
      pullRequest: (created) => pulls.inc({ action: created ? 'created' : 'updated' }),
    },
    webhooks: { delivered: (outcome) => deliveryChild(outcome).inc() },
    indexing: { pagesIndexed: (count) => pages.inc(count) },
    temporal: { observeCall: (call, outcome, seconds) => temporalChild(call, outcome).add(seconds) },
  };
}

/** Observations kept per labelled series before prom-client gets them. */
const PENDING = 256;

/**
 * Observations of one labelled series, kept as numbers and handed to prom-client's child in one
 * loop when PENDING have gathered or when the registry is read (a scrape), so every exposition
 * holds every observation made before it. prom-client's `observe` checks and hashes the labels on
 * every call; called from a request, among everything else the request runs, it cost several
 * times what the same calls cost back to back. Values that are not finite numbers are dropped
 * here (prom-client would throw, and a scrape is no place for that).
 */
class PendingObservations {
  private readonly values = new Float64Array(PENDING);
  private count = 0;

  constructor(private readonly child: { observe(value: number): void }) {}

  add(value: number): void {
    if (!Number.isFinite(value)) return;
    this.values[this.count++] = value;
    if (this.count === PENDING) this.flush();
  }

  flush(): void {
    const { values, count } = this;
    this.count = 0;
    for (let i = 0; i < count; i++) this.child.observe(values[i]!);
  }
}

/** The pending observations of one histogram's series, all handed over by `flush` (the histogram's `collect`, run before each read). */
class ObservationBatches {
  private readonly series: PendingObservations[] = [];

  of(child: { observe(value: number): void }): PendingObservations {
    const pending = new PendingObservations(child);
    this.series.push(pending);
    return pending;
  }

  readonly flush = (): void => {
    for (const pending of this.series) pending.flush();
  };
}

/**
 * `make` memoised by its arguments, for the metric children of bounded label sets (every label
 * here is a fixed name, a route template, a status, a model or, when asked for, an organisation).
 */
function children<A extends Array<string | number | undefined>, T>(make: (...args: A) => T): (...args: A) => T {
  const made = new Map<string, T>();
  return (...args) => {
    const key = args.join('\u0000');
    let child = made.get(key);
    if (child === undefined) made.set(key, (child = make(...args)));
    return child;
  };
}

/** Seconds since a `performance.now()` reading. */
export function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}
