/**
 * The operator's files as CI checks them, with the real tools `infra/setup.sh --test` installs:
 * promtool (Debian's `prometheus`) on the alert rules, their unit cases (alerts.promtool.yml) and
 * the scrape config; helm (.tools/bin/helm) lint and template on the chart, whose rendered
 * manifests are then read back as YAML. The dashboard, the rules and the compose file are read
 * too: every metric they name must be one Quire or the Temporal SDK exports.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { loadConfig } from '../../../core/config.js';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const OBSERVABILITY = path.join(ROOT, 'infra', 'observability');
const CHART = path.join(ROOT, 'infra', 'helm', 'quire');
const HELM = path.join(ROOT, '.tools', 'bin', 'helm');

/** Quire's own series (prom-client): histograms expose _bucket, _sum and _count. */
const QUIRE_METRICS: Record<string, 'counter' | 'histogram'> = {
  quire_http_request_duration_seconds: 'histogram',
  quire_assistant_first_token_seconds: 'histogram',
  quire_assistant_answers_total: 'counter',
  quire_retrieval_duration_seconds: 'histogram',
  quire_rate_limit_rejections_total: 'counter',
  quire_db_query_duration_seconds: 'histogram',
  quire_agent_turns_total: 'counter',
  quire_agent_turn_duration_seconds: 'histogram',
  quire_model_tokens_total: 'counter',
  quire_model_request_duration_seconds: 'histogram',
  quire_pull_requests_total: 'counter',
  quire_webhook_deliveries_total: 'counter',
  quire_index_pages_total: 'counter',
  quire_temporal_request_duration_seconds: 'histogram',
};

/**
 * The Temporal Core SDK's worker and client metrics (sdk-core telemetry/metrics.rs), as its
 * Prometheus exporter names them with the worker's settings, the SDK's defaults: the `temporal_`
 * prefix, no `_total` on counters, durations in milliseconds without a unit suffix.
 */
const TEMPORAL_COUNTERS = [
  'workflow_completed', 'workflow_canceled', 'workflow_failed', 'workflow_continue_as_new',
  'workflow_task_queue_poll_empty', 'workflow_task_queue_poll_succeed', 'workflow_task_execution_failed',
  'activity_poll_no_task', 'activity_task_received', 'activity_execution_failed',
  'local_activity_execution_cancelled', 'local_activity_execution_failed', 'local_activity_total',
  'nexus_poll_no_task', 'nexus_task_execution_failed', 'worker_start',
  'sticky_cache_hit', 'sticky_cache_miss', 'sticky_cache_total_forced_eviction',
  'request', 'request_failure', 'long_request', 'long_request_failure',
];
const TEMPORAL_DURATIONS = [
  'workflow_endtoend_latency', 'workflow_task_schedule_to_start_latency', 'workflow_task_replay_latency',
  'workflow_task_execution_latency', 'activity_schedule_to_start_latency', 'activity_execution_latency',
  'activity_succeed_endtoend_latency', 'local_activity_execution_latency', 'local_activity_succeed_endtoend_latency',
  'nexus_task_schedule_to_start_latency', 'nexus_task_endtoend_latency', 'nexus_task_execution_latency',
  'request_latency', 'long_request_latency',
];
const TEMPORAL_GAUGES = ['num_pollers', 'worker_task_slots_available', 'worker_task_slots_used', 'sticky_cache_size'];

/** Every series name a query may use. */
function exportedSeries(): Set<string> {
  const names = new Set<string>();
  const histogram = (base: string) => ['_bucket', '_sum', '_count'].forEach((s) => names.add(base + s));
  for (const [name, kind] of Object.entries(QUIRE_METRICS)) {
    if (kind === 'histogram') histogram(name);
    else names.add(name);
  }
  for (const name of TEMPORAL_COUNTERS) names.add(`temporal_${name}`);
  for (const name of TEMPORAL_DURATIONS) histogram(`temporal_${name}`);
  for (const name of TEMPORAL_GAUGES) names.add(`temporal_${name}`);
  return names;
}

const metricNames = (expr: string): string[] => expr.match(/\b(?:quire|temporal)_[A-Za-z0-9_:]+/g) ?? [];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a tool to its end; a non-zero exit is returned, not thrown, so assertions can show the output. */
function run(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') reject(new Error(`${command} could not run (${err.message}); run infra/setup.sh --test`));
      else resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

async function succeeds(command: string, args: string[]): Promise<string> {
  const result = await run(command, args);
  assert.equal(result.code, 0, `${path.basename(command)} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

// The rendered manifests, typed as far as the assertions read them.
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface Probe {
  httpGet: { path: string; port: string | number };
}
interface Container {
  name: string;
  image: string;
  args: string[];
  ports?: { name: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef: { name: string } }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
}
interface PodTemplate {
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: Container[] };
}
interface Manifest {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec?: { replicas?: number; selector?: Record<string, unknown>; template?: PodTemplate; ports?: { port: number; targetPort: string }[] };
  data?: Record<string, string>;
}

async function template(values: object | undefined): Promise<Manifest[]> {
  const args = ['template', 'quire', CHART, '--namespace', 'docs'];
  if (values) {
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'quire-helm-')), 'values.yaml');
    await fs.writeFile(file, YAML.stringify(values));
    args.push('--values', file);
  }
  const stdout = await succeeds(HELM, args);
  return YAML.parseAllDocuments(stdout)
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((m): m is Manifest => m !== null);
}

function find(manifests: Manifest[], kind: string, name: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  assert.ok(found, `no ${kind} ${name} among: ${manifests.map((m) => `${m.kind} ${m.metadata.name}`).join(', ')}`);
  return found;
}

function container(manifest: Manifest): Container {
  const c = manifest.spec?.template?.spec.containers[0];
  assert.ok(c, `${manifest.metadata.name} has no container`);
  return c;
}

/** The container port a probe reaches, its named port resolved. */
function probePort(c: Container, probe: Probe | undefined): number {
  assert.ok(probe, `${c.name} has no probe`);
  const port = probe.httpGet.port;
  if (typeof port === 'number') return port;
  const named = c.ports?.find((p) => p.name === port);
  assert.ok(named, `${c.name}'s probe names the port ${port}, which it does not declare`);
  return named.containerPort;
}

const SECRET_VARIABLES = ['QUIRE_MODEL_API_KEY', 'QUIRE_DATABASE_URL', 'TEMPORAL_API_KEY', 'QDRANT_API_KEY', 'GITHUB_TOKEN'];

/** Secret variables only ever come from a Secret key, never as a value in a manifest. */
function assertNoLiteralSecrets(manifests: Manifest[]): void {
  for (const m of manifests) {
    for (const key of Object.keys(m.data ?? {})) assert.ok(!SECRET_VARIABLES.includes(key), `${m.kind} ${m.metadata.name} holds ${key}`);
    for (const c of m.spec?.template?.spec.containers ?? [])
      for (const e of c.env ?? [])
        if (SECRET_VARIABLES.includes(e.name)) {
          assert.equal(e.value, undefined, `${c.name} sets ${e.name} as a literal value`);
          assert.ok(e.valueFrom?.secretKeyRef, `${c.name} reads ${e.name} from somewhere other than a Secret`);
        }
  }
}

const envOf = (c: Container, name: string) => c.env?.find((e) => e.name === name);

/** What every release must name: the Secret with the shared database's URL, and Qdrant. */
const SHARED = { secrets: { databaseUrl: { secretName: 'quire-db' } }, config: { QDRANT_URL: 'http://qdrant:6333' } };

/** A stand-in value for each Secret key the chart reads (the shapes Quire's configuration accepts). */
const SECRET_SAMPLES: Record<string, string> = {
  'database-url': 'postgres://quire:pw@postgresql:5432/quire',
  url: 'postgres://quire:pw@postgresql:5432/quire',
  'model-api-key': 'sk-sample-0123456789abcdef',
  'temporal-api-key': 'temporal-sample-key',
  'qdrant-api-key': 'qdrant-sample-key',
  'embedding-api-key': 'sk-sample-embeddings-0123',
  'operator-token': 'operator-sample-token-0123456789',
  'github-token': 'ghp_sample0123456789abcdefghij',
};

/**
 * The environment a container of the rendered chart starts with: its ConfigMap, its values and the
 * keys `secretKeys` has (sampled); an optional key the Secret lacks leaves its variable unset, as
 * Kubernetes does, and a required one would keep the pod from starting.
 */
function environmentOf(c: Container, manifests: Manifest[], secretKeys: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of c.envFrom ?? []) Object.assign(env, find(manifests, 'ConfigMap', from.configMapRef.name).data);
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef;
    if (ref && !secretKeys.includes(ref.key)) {
      assert.ok(ref.optional, `${c.name} needs the key ${ref.key}, which the Secret lacks`);
      continue;
    }
    const value = e.value ?? (ref ? SECRET_SAMPLES[ref.key] : undefined);
    assert.ok(value !== undefined, `${c.name}: no value or sample for ${e.name}`);
    env[e.name] = value;
  }
  return env;
}

/** README's install: the keys its `kubectl create secret` gives the Secret, and its `helm install`'s `--set` pairs. */
async function readmeHelmInstall(): Promise<{ secretKeys: string[]; sets: string[] }> {
  const readme = await fs.readFile(path.join(ROOT, 'README.md'), 'utf8');
  const secret = /^kubectl create secret generic quire (.*)$/m.exec(readme);
  const command = /^helm install quire infra\/helm\/quire((?:.*\\\n)*.*)$/m.exec(readme);
  assert.ok(secret && command, "README shows 'kubectl create secret generic quire' and 'helm install quire infra/helm/quire'");
  return {
    secretKeys: [...secret[1]!.matchAll(/--from-(?:file|literal)=([a-z-]+)=/g)].map((m) => m[1]!),
    sets: [...command[1]!.matchAll(/--set\s+(\S+)/g)].map((m) => m[1]!),
  };
}

describe('observability and deployment files', function () {
  this.timeout(120_000);

  describe('Prometheus', () => {
    it('promtool accepts the alert rules and the scrape config, which loads them', async () => {
      const rules = await succeeds('promtool', ['check', 'rules', path.join(OBSERVABILITY, 'alerts.yml')]);
      assert.match(rules, /SUCCESS: \d+ rules found/);
      const config = await succeeds('promtool', ['check', 'config', path.join(OBSERVABILITY, 'prometheus.yml')]);
      assert.match(config, /SUCCESS: 1 rule files found/);
    });

    it('the alerts fire on the series that should raise them and stay quiet on the others (promtool test rules)', async () => {
      const out = await run('promtool', ['test', 'rules', path.join(__dirname, 'alerts.promtool.yml')]);
      assert.equal(out.code, 0, `promtool test rules failed:\n${out.stdout}${out.stderr}`);
      assert.match(out.stdout, /SUCCESS/);
    });

    it('alerts exist for error rate, first token, failing turns, webhook backlog and failures, and schedule-to-start', async () => {
      const doc = YAML.parse(await fs.readFile(path.join(OBSERVABILITY, 'alerts.yml'), 'utf8')) as {
        groups: { rules: { alert: string; expr: string; annotations: { summary: string; description: string } }[] }[];
      };
      const rules = doc.groups.flatMap((g) => g.rules);
      const byName = new Map(rules.map((r) => [r.alert, r]));
      const expectations: [string, string][] = [
        ['QuireApiHighErrorRate', 'quire_http_request_duration_seconds_count'],
        ['QuireAssistantSlowFirstToken', 'quire_assistant_first_token_seconds_bucket'],
        ['QuireAgentTurnsFailing', 'quire_agent_turns_total'],
        ['QuireWebhookBacklog', 'quire_webhook_deliveries_total'],
        ['QuireWebhookDeliveriesFailing', 'quire_webhook_deliveries_total'],
        ['QuireWorkflowTaskScheduleToStartHigh', 'temporal_workflow_task_schedule_to_start_latency_bucket'],
        ['QuireActivityScheduleToStartHigh', 'temporal_activity_schedule_to_start_latency_bucket'],
      ];
      for (const [alert, metric] of expectations) {
        const rule = byName.get(alert);
        assert.ok(rule, `no alert ${alert}`);
        assert.ok(metricNames(rule.expr).includes(metric), `${alert} does not read ${metric}: ${rule.expr}`);
        assert.ok(rule.annotations.summary && rule.annotations.description, `${alert} lacks a summary or description`);
      }
      // README.md says what each alert means.
      const readme = await fs.readFile(path.join(ROOT, 'README.md'), 'utf8');
      for (const rule of rules) assert.ok(readme.includes(`\`${rule.alert}\``), `README.md does not explain ${rule.alert}`);
    });
  });

  describe('metric names', () => {
    it('every quire_ and temporal_ series in the rules and the dashboard is one that is exported', async () => {
      const exported = exportedSeries();
      const rules = YAML.parse(await fs.readFile(path.join(OBSERVABILITY, 'alerts.yml'), 'utf8')) as { groups: { rules: { expr: string }[] }[] };
      const dashboard = JSON.parse(await fs.readFile(path.join(OBSERVABILITY, 'grafana', 'dashboards', 'quire.json'), 'utf8')) as {
        panels: { title: string; targets?: { expr: string }[] }[];
      };
      const queries = [
        ...rules.groups.flatMap((g) => g.rules.map((r) => ({ where: 'alerts.yml', expr: r.expr }))),
        ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `panel "${p.title}"`, expr: t.expr }))),
      ];
      const used = new Set<string>();
      for (const { where, expr } of queries)
        for (const name of metricNames(expr)) {
          assert.ok(exported.has(name), `${where} queries ${name}, which neither Quire nor the Temporal SDK exports`);
          used.add(name);
        }
      assert.ok(queries.length > 20, 'the dashboard and the rules hold queries');
      // The dashboard shows every metric Quire exports, and the Temporal task queue.
      const dashboardText = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)).join('\n');
      for (const name of Object.keys(QUIRE_METRICS)) assert.ok(dashboardText.includes(name), `the dashboard does not show ${name}`);
      for (const name of ['temporal_workflow_task_schedule_to_start_latency_bucket', 'temporal_worker_task_slots_available', 'temporal_workflow_task_queue_poll_succeed'])
        assert.ok(used.has(name), `the dashboard does not show ${name}`);
    });

    it('every Temporal name is the SDK’s own: each appears in the Core SDK source @temporalio/core-bridge ships', async () => {
      const core = path.join(path.dirname(require.resolve('@temporalio/core-bridge/package.json')), 'sdk-core', 'crates');
      const sources = await Promise.all(
        ['sdk-core/src/telemetry/metrics.rs', 'common/src/telemetry/metrics.rs', 'client/src/metrics.rs'].map((file) => fs.readFile(path.join(core, file), 'utf8')),
      );
      const quoted = new Set(sources.flatMap((source) => [...source.matchAll(/"([a-z_]+)"/g)].map((m) => m[1])));
      for (const name of [...TEMPORAL_COUNTERS, ...TEMPORAL_DURATIONS, ...TEMPORAL_GAUGES]) assert.ok(quoted.has(name), `the Temporal SDK defines no metric ${name}`);
    });

    it('the name check itself refuses a misspelt metric', () => {
      const exported = exportedSeries();
      for (const typo of ['quire_http_request_duration_second_count', 'temporal_workflow_task_schedule_to_start_latency_seconds_bucket', 'temporal_workflow_task_queue_poll_succeed_total'])
        assert.ok(!exported.has(typo), `${typo} would pass`);
    });
  });

  describe('Grafana and compose', () => {
    it('provisioning points at the Prometheus the dashboard uses and at the mounted dashboards', async () => {
      const datasources = YAML.parse(await fs.readFile(path.join(OBSERVABILITY, 'grafana', 'provisioning', 'datasources', 'prometheus.yml'), 'utf8')) as {
        datasources: { uid: string; type: string; url: string }[];
      };
      const providers = YAML.parse(await fs.readFile(path.join(OBSERVABILITY, 'grafana', 'provisioning', 'dashboards', 'quire.yml'), 'utf8')) as {
        providers: { options: { path: string } }[];
      };
      const dashboard = JSON.parse(await fs.readFile(path.join(OBSERVABILITY, 'grafana', 'dashboards', 'quire.json'), 'utf8')) as {
        templating: { list: { name: string; current: { value: string } }[] };
      };
      const [source] = datasources.datasources;
      assert.equal(source?.type, 'prometheus');
      assert.equal(dashboard.templating.list.find((v) => v.name === 'datasource')?.current.value, source.uid);

      const compose = YAML.parse(await fs.readFile(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as {
        services: Record<string, { profiles?: string[]; volumes?: string[]; environment?: Record<string, string>; ports?: string[] }>;
      };
      const grafanaMounts = compose.services.grafana?.volumes ?? [];
      assert.ok(grafanaMounts.some((v) => v.endsWith(`:${providers.providers[0]?.options.path}:ro`)), 'Grafana mounts the dashboards where the provider reads them');
      assert.equal(new URL(source.url).hostname, 'prometheus');
    });

    it('docker-compose.yml keeps its services and adds Prometheus, Grafana and Jaeger under the profile observability', async () => {
      const compose = YAML.parse(await fs.readFile(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as {
        services: Record<string, { profiles?: string[]; volumes?: string[]; environment?: Record<string, string>; command?: string[]; ports?: string[] }>;
      };
      // Only the API is published beyond the host: the engines and the profile's UIs (Grafana lets anyone view) stay on loopback.
      for (const [name, service] of Object.entries(compose.services))
        for (const published of service.ports ?? []) {
          if (name === 'api') assert.equal(published, '3000:3000');
          else assert.match(published, /^127\.0\.0\.1:/, `${name} publishes ${published} on every interface`);
        }
      for (const name of ['postgresql', 'temporal', 'temporal-ui', 'redis', 'qdrant', 'api', 'worker'])
        assert.equal(compose.services[name]?.profiles, undefined, `${name} must run without a profile`);
      for (const name of ['prometheus', 'grafana', 'jaeger']) assert.deepEqual(compose.services[name]?.profiles, ['observability'], `${name} is in the profile`);
      // Every mounted file of the profile exists, so `up` does not create empty directories in their place.
      for (const name of ['prometheus', 'grafana'])
        for (const volume of compose.services[name]?.volumes ?? []) {
          const [source] = volume.split(':');
          if (source?.startsWith('./')) await fs.access(path.join(ROOT, source));
        }
      // Traces are opt-in: only the override file names an OTLP endpoint, and it is Jaeger's HTTP receiver.
      for (const name of ['api', 'worker']) assert.equal(compose.services[name]?.environment?.OTEL_EXPORTER_OTLP_ENDPOINT, undefined);
      assert.ok(compose.services.jaeger?.command?.some((arg) => arg.includes(':4318')), 'Jaeger receives OTLP over HTTP on 4318');
      const otel = YAML.parse(await fs.readFile(path.join(OBSERVABILITY, 'compose.otel.yml'), 'utf8')) as { services: Record<string, { environment: Record<string, string> }> };
      for (const name of ['api', 'worker']) assert.equal(otel.services[name]?.environment.OTEL_EXPORTER_OTLP_ENDPOINT, 'http://jaeger:4318');

      // Prometheus scrapes the ports the processes listen on by default (and the chart's).
      const scrape = YAML.parse(await fs.readFile(path.join(OBSERVABILITY, 'prometheus.yml'), 'utf8')) as {
        scrape_configs: { job_name: string; dns_sd_configs: { names: string[]; port: number }[] }[];
      };
      const ports = Object.fromEntries(scrape.scrape_configs.map((c) => [c.job_name, c.dns_sd_configs[0]]));
      assert.deepEqual(ports['quire-api'], { names: ['api'], type: 'A', port: 9464 });
      assert.deepEqual(ports['quire-worker'], { names: ['worker'], type: 'A', port: 9465 });
    });
  });

  describe('compose environment', () => {
    it("the API's and the worker's environment passes Quire's configuration check with the optional settings unset, or set", async () => {
      const compose = YAML.parse(await fs.readFile(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
        services: Record<string, { environment?: Record<string, string> }>;
      };
      // Compose's interpolation: ${X:-d} is d when X is unset or empty, ${X} is X or nothing.
      const interpolate = (value: string, vars: Record<string, string>) =>
        value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback: string | undefined) => vars[name] || (fallback ?? ''));
      const model = { QUIRE_MODEL_BASE_URL: 'https://llm.example/v1', QUIRE_MODEL_API_KEY: 'sk-sample-0123456789abcdef', QUIRE_MODEL: 'gpt-x', GITHUB_TOKEN: 'ghp_sample0123456789abcdefghij' };
      const embeddings = { ...model, QUIRE_EMBEDDER: 'openai', QUIRE_EMBEDDING_MODEL: 'text-embedding-3-small' };
      for (const vars of [{}, model, embeddings] as Record<string, string>[]) {
        for (const name of ['api', 'worker']) {
          const environment = compose.services[name]?.environment;
          assert.ok(environment, `${name} has an environment`);
          const env = Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, interpolate(String(v), vars)]));
          const config = loadConfig(env, '/app');
          assert.equal(config.database.dialect, 'postgres');
          assert.equal(config.model?.name, vars.QUIRE_MODEL);
          assert.equal(config.embedder.kind, vars.QUIRE_EMBEDDER ?? 'none', 'no local embedder is called: none runs here');
          // Forge tokens reach the worker only.
          assert.equal('GITHUB_TOKEN' in env, name === 'worker');
        }
      }
    });
  });

  describe('Helm chart', () => {
    it('helm lint passes with the default values and with an override', async () => {
      await succeeds(HELM, ['lint', CHART, '--strict']);
      await succeeds(HELM, ['lint', CHART, '--strict', '--set', 'worker.replicas=3', '--set', 'secrets.existingSecret=quire-prod']);
    });

    it('renders the API and worker Deployments with probes, metrics ports and scrape annotations, the Service and the migration hook', async () => {
      const manifests = await template(SHARED);
      const api = find(manifests, 'Deployment', 'quire-api');
      const worker = find(manifests, 'Deployment', 'quire-worker');
      const config = find(manifests, 'ConfigMap', 'quire');
      const apiC = container(api);
      const workerC = container(worker);

      assert.deepEqual(apiC.args, ['node', 'dist/api/server.js']);
      assert.deepEqual(workerC.args, ['node', 'dist/worker/main.js']);
      assert.equal(apiC.image, 'quire:0.1.0');
      assert.equal(apiC.livenessProbe?.httpGet.path, '/healthz');
      assert.equal(apiC.readinessProbe?.httpGet.path, '/readyz');
      assert.equal(probePort(apiC, apiC.livenessProbe), 3000);
      assert.equal(probePort(apiC, apiC.readinessProbe), 3000);
      assert.equal(workerC.livenessProbe?.httpGet.path, '/healthz');
      assert.equal(workerC.readinessProbe?.httpGet.path, '/readyz');
      assert.equal(probePort(workerC, workerC.readinessProbe), 9465);
      // Each stopping process gets longer than its own grace (the API's 20 s for streams and 10 s to store what they left).
      assert.equal((api.spec?.template?.spec as { terminationGracePeriodSeconds?: number } | undefined)?.terminationGracePeriodSeconds, 40);
      assert.equal((worker.spec?.template?.spec as { terminationGracePeriodSeconds?: number } | undefined)?.terminationGracePeriodSeconds, 60);

      for (const [deployment, port] of [[api, '9464'], [worker, '9465']] as const) {
        const annotations = deployment.spec?.template?.metadata.annotations ?? {};
        assert.equal(annotations['prometheus.io/scrape'], 'true');
        assert.equal(annotations['prometheus.io/port'], port);
        assert.equal(annotations['prometheus.io/path'], '/metrics');
        const c = container(deployment);
        assert.ok(c.ports?.some((p) => p.name === 'metrics' && String(p.containerPort) === port), `${c.name} declares its metrics port`);
        assert.deepEqual(c.envFrom, [{ configMapRef: { name: 'quire' } }]);
      }
      // The processes listen where the probes, the annotations and the Service look.
      assert.equal(config.data?.PORT, '3000');
      assert.equal(config.data?.QUIRE_METRICS_PORT, '9464');
      assert.equal(config.data?.QUIRE_WORKER_METRICS_PORT, '9465');
      assert.equal(config.data?.QUIRE_METRICS_HOST, '0.0.0.0');
      assert.equal(config.data?.TEMPORAL_TASK_QUEUE, 'quire');
      assert.ok(!('REDIS_URL' in (config.data ?? {})), 'empty settings are left out, not set to an empty string');

      const service = find(manifests, 'Service', 'quire-api');
      assert.deepEqual(service.spec?.ports?.map((p) => [p.port, p.targetPort]), [[3000, 'http']]);
      const selector = service.spec?.selector as Record<string, string>;
      for (const [label, value] of Object.entries(selector)) assert.equal(api.spec?.template?.metadata.labels[label], value);
      assert.notEqual(worker.spec?.template?.metadata.labels['app.kubernetes.io/component'], selector['app.kubernetes.io/component'], 'the Service does not select workers');

      const job = find(manifests, 'Job', 'quire-migrate');
      assert.equal(job.metadata.annotations?.['helm.sh/hook'], 'pre-install,pre-upgrade');
      const jobC = container(job);
      assert.deepEqual(jobC.args, ['node', 'infra/bin/quire.js', 'migrate']);
      // A pre-install hook runs before the ConfigMap exists: the Job carries the same settings itself.
      assert.equal(jobC.envFrom, undefined);
      for (const [name, value] of Object.entries(config.data ?? {})) assert.equal(envOf(jobC, name)?.value, value, `the migration sees ${name}`);

      assert.equal(worker.spec?.replicas, 2);
      // The database's Secret alone is named: no other secret variable is set, and the database's is required.
      for (const c of [apiC, workerC, jobC]) {
        assert.deepEqual(envOf(c, 'QUIRE_DATABASE_URL')?.valueFrom?.secretKeyRef, { name: 'quire-db', key: 'database-url', optional: false });
        for (const name of SECRET_VARIABLES.filter((n) => n !== 'QUIRE_DATABASE_URL')) assert.equal(envOf(c, name), undefined);
      }
      assertNoLiteralSecrets(manifests);
    });

    it('an override scales the workers and reads every secret from the named existing Secret', async () => {
      const manifests = await template({
        config: SHARED.config,
        worker: { replicas: 3 },
        api: { port: 8080 },
        secrets: { existingSecret: 'quire-prod', databaseUrl: { secretName: 'quire-db', key: 'url' }, workerEnv: [{ env: 'GITHUB_TOKEN', key: 'github-token' }], apiEnv: [{ env: 'ACME_PUSH_SECRET', key: 'acme-push-secret' }] },
      });
      const api = container(find(manifests, 'Deployment', 'quire-api'));
      const worker = find(manifests, 'Deployment', 'quire-worker');
      const workerC = container(worker);
      const job = container(find(manifests, 'Job', 'quire-migrate'));
      assert.equal(worker.spec?.replicas, 3);
      assert.equal(probePort(api, api.readinessProbe), 8080);
      assert.equal(find(manifests, 'ConfigMap', 'quire').data?.PORT, '8080');

      for (const c of [api, workerC, job]) {
        assert.deepEqual(envOf(c, 'QUIRE_MODEL_API_KEY')?.valueFrom?.secretKeyRef, { name: 'quire-prod', key: 'model-api-key', optional: true });
        assert.deepEqual(envOf(c, 'TEMPORAL_API_KEY')?.valueFrom?.secretKeyRef, { name: 'quire-prod', key: 'temporal-api-key', optional: true });
        assert.deepEqual(envOf(c, 'QUIRE_DATABASE_URL')?.valueFrom?.secretKeyRef, { name: 'quire-db', key: 'url', optional: false });
        assert.deepEqual(envOf(c, 'QUIRE_OPERATOR_TOKEN')?.valueFrom?.secretKeyRef, { name: 'quire-prod', key: 'operator-token', optional: true });
        assert.deepEqual(envOf(c, 'QUIRE_EMBEDDING_API_KEY')?.valueFrom?.secretKeyRef, { name: 'quire-prod', key: 'embedding-api-key', optional: true });
        assert.deepEqual(envOf(c, 'REDIS_URL')?.valueFrom?.secretKeyRef, { name: 'quire-prod', key: 'redis-url', optional: true });
        assert.deepEqual(envOf(c, 'HTTPS_PROXY')?.valueFrom?.secretKeyRef, { name: 'quire-prod', key: 'https-proxy', optional: true });
        assert.deepEqual(envOf(c, 'HTTP_PROXY')?.valueFrom?.secretKeyRef, { name: 'quire-prod', key: 'http-proxy', optional: true });
        assert.deepEqual(envOf(c, 'OTEL_EXPORTER_OTLP_HEADERS')?.valueFrom?.secretKeyRef, { name: 'quire-prod', key: 'otlp-headers', optional: true });
      }
      // Forge tokens reach the worker only.
      assert.deepEqual(envOf(workerC, 'GITHUB_TOKEN')?.valueFrom?.secretKeyRef, { name: 'quire-prod', key: 'github-token', optional: false });
      assert.equal(envOf(api, 'GITHUB_TOKEN'), undefined);
      // Push-hook secrets reach the API only: it checks the deliveries.
      assert.deepEqual(envOf(api, 'ACME_PUSH_SECRET')?.valueFrom?.secretKeyRef, { name: 'quire-prod', key: 'acme-push-secret', optional: false });
      assert.equal(envOf(workerC, 'ACME_PUSH_SECRET'), undefined);
      assertNoLiteralSecrets(manifests);
    });

    it('refuses a release without the shared database or Qdrant, saying why', async () => {
      const noDatabase = await run(HELM, ['template', 'quire', CHART, '--set', 'config.QDRANT_URL=http://qdrant:6333']);
      assert.notEqual(noDatabase.code, 0, 'rendered with no database Secret');
      assert.match(noDatabase.stderr, /secrets\.existingSecret \(or secrets\.databaseUrl\.secretName\) must name the Secret holding the PostgreSQL URL/);
      const noQdrant = await run(HELM, ['template', 'quire', CHART, '--set', 'secrets.existingSecret=quire']);
      assert.notEqual(noQdrant.code, 0, 'rendered with no QDRANT_URL');
      assert.match(noQdrant.stderr, /config\.QDRANT_URL is required/);
    });

    it('refuses credentials in any URL in config, naming the secrets value to use instead; a URL without them stays a setting', async () => {
      const shared = ['--set', 'secrets.existingSecret=quire', '--set', 'config.QDRANT_URL=http://qdrant:6333'];
      const refusals: Array<[string, string, RegExp]> = [
        ['REDIS_URL', 'redis://:hunter2@redis:6379', /give the whole URL through secrets\.redisUrl \(a Secret name and key\)/],
        ['HTTPS_PROXY', 'http://proxy-user:hunter2@proxy:3128', /give the whole URL through secrets\.httpsProxy/],
        ['http_proxy', 'http://proxy-user:hunter2@proxy:3128', /give the whole URL through secrets\.httpProxy/],
        ['QDRANT_URL', 'https://quire:hunter2@qdrant:6333', /give the URL without them, and the credential through secrets\.qdrantApiKey \(QDRANT_API_KEY/],
        ['QUIRE_MODEL_BASE_URL', 'https://quire:hunter2@llm.internal/v1', /the credential through secrets\.modelApiKey \(QUIRE_MODEL_API_KEY/],
        ['OTEL_EXPORTER_OTLP_ENDPOINT', 'https://quire:hunter2@otel:4318', /the credential through secrets\.otlpHeaders \(OTEL_EXPORTER_OTLP_HEADERS/],
        ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'https://hunter2@otel:4318/v1/traces', /the credential through secrets\.otlpHeaders/],
        ['QUIRE_PUBLIC_URL', 'https://quire:hunter2@docs.acme.test', /give the URL without them/],
      ];
      for (const [name, url, instead] of refusals) {
        const refused = await run(HELM, ['template', 'quire', CHART, ...shared, '--set', `config.${name}=${url}`]);
        assert.notEqual(refused.code, 0, `rendered ${name} with credentials`);
        assert.match(refused.stderr, new RegExp(`config\\.${name} holds credentials \\(user:password@\\): `));
        assert.match(refused.stderr, instead, name);
        assert.doesNotMatch(refused.stderr + refused.stdout, /hunter2/);
      }
      // A database URL is a secret whole, and the refusal names where it goes.
      const database = await run(HELM, ['template', 'quire', CHART, ...shared, '--set', 'config.QUIRE_DATABASE_URL=postgres://quire:hunter2@db:5432/quire']);
      assert.notEqual(database.code, 0);
      assert.match(database.stderr, /config\.QUIRE_DATABASE_URL is a secret: give it through secrets\.databaseUrl/);
      assert.doesNotMatch(database.stderr, /hunter2/);

      const plain = await template({ ...SHARED, config: { ...SHARED.config, HTTPS_PROXY: 'http://proxy:3128', REDIS_URL: 'redis://redis:6379', QUIRE_PUBLIC_URL: 'https://docs.acme.test/a@b' } });
      const data = find(plain, 'ConfigMap', 'quire').data ?? {};
      assert.equal(data.HTTPS_PROXY, 'http://proxy:3128');
      assert.equal(data.REDIS_URL, 'redis://redis:6379');
      assert.equal(data.QUIRE_PUBLIC_URL, 'https://docs.acme.test/a@b', 'an @ past the host is no credential');
    });

    it("README's install renders pods whose environment passes Quire's own configuration check", async () => {
      const { secretKeys, sets } = await readmeHelmInstall();
      assert.ok(secretKeys.includes('database-url'));
      const stdout = await succeeds(HELM, ['template', 'quire', CHART, ...sets.flatMap((pair) => ['--set', pair])]);
      const manifests = YAML.parseAllDocuments(stdout)
        .map((doc) => doc.toJS() as Manifest | null)
        .filter((m): m is Manifest => m !== null);
      for (const [kind, name] of [['Deployment', 'quire-api'], ['Deployment', 'quire-worker'], ['Job', 'quire-migrate']] as const) {
        const c = container(find(manifests, kind, name));
        const config = loadConfig(environmentOf(c, manifests, secretKeys), '/app');
        assert.equal(config.database.dialect, 'postgres', `${name} uses the shared database`);
        assert.ok(config.model, `${name} has the model README's install names`);
        assert.equal(config.embedder.kind, 'none', `${name} does not call a local embedder nothing runs`);
        assert.ok(config.qdrant, `${name} reads the shared index`);
      }
    });

    it("mounts Temporal's client certificate from a Secret where TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY point", async () => {
      const manifests = await template({ ...SHARED, temporalClientTls: { secretName: 'temporal-client' } });
      const config = find(manifests, 'ConfigMap', 'quire').data ?? {};
      for (const name of ['quire-api', 'quire-worker']) {
        const deployment = find(manifests, 'Deployment', name);
        const spec = deployment.spec?.template?.spec as unknown as { volumes: { name: string; secret?: { secretName: string } }[]; containers: { volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[] }[] };
        assert.deepEqual(spec.volumes.find((v) => v.name === 'temporal-tls')?.secret, { secretName: 'temporal-client' });
        const mount = spec.containers[0]!.volumeMounts.find((m) => m.name === 'temporal-tls');
        assert.equal(mount?.readOnly, true);
        assert.equal(config.TEMPORAL_TLS_CERT, `${mount?.mountPath}/tls.crt`);
        assert.equal(config.TEMPORAL_TLS_KEY, `${mount?.mountPath}/tls.key`);
        const settings = loadConfig(environmentOf(container(deployment), manifests, ['database-url']), '/app');
        assert.equal(settings.temporal.tls, true);
      }
      // Without it, nothing is mounted and no certificate is named.
      const plain = await template(SHARED);
      assert.equal(find(plain, 'ConfigMap', 'quire').data?.TEMPORAL_TLS_CERT, undefined);
      assert.ok(!YAML.stringify(plain).includes('temporal-tls'));
    });

    it('writes a whole number from a values file as digits (never 1e+06), which the pods and the migration accept', async () => {
      // YAML numbers reach the chart as float64; a fraction stays one.
      const manifests = await template({ ...SHARED, config: { ...SHARED.config, QUIRE_AGENT_MAX_TOKENS: 1_000_000, QUIRE_ASSISTANT_PROMPT_TOKENS: 20_000, OTEL_TRACES_SAMPLER_ARG: 0.25 } });
      const data = find(manifests, 'ConfigMap', 'quire').data ?? {};
      assert.equal(data.QUIRE_AGENT_MAX_TOKENS, '1000000');
      assert.equal(data.QUIRE_ASSISTANT_PROMPT_TOKENS, '20000');
      assert.equal(data.OTEL_TRACES_SAMPLER_ARG, '0.25');
      for (const [kind, name] of [['Deployment', 'quire-api'], ['Deployment', 'quire-worker'], ['Job', 'quire-migrate']] as const) {
        const config = loadConfig(environmentOf(container(find(manifests, kind, name)), manifests, ['database-url']), '/app');
        assert.equal(config.agent.maxTokens, 1_000_000, name);
      }
    });

    it('refuses a secret given as a plain value, without repeating it', async () => {
      const leaked = 'sk-not-a-real-key-3f9a';
      const out = await run(HELM, ['template', 'quire', CHART, '--set', `config.QUIRE_MODEL_API_KEY=${leaked}`]);
      assert.notEqual(out.code, 0, 'helm template accepted a secret in config');
      assert.match(out.stderr, /config\.QUIRE_MODEL_API_KEY is a secret/);
      assert.ok(!out.stderr.includes(leaked) && !out.stdout.includes(leaked), 'the value is not printed');
    });
  });
});
