/**
 * Agent job benchmark (`npm run bench:agent`): the embedded defaults (one
 * SQLite database, the Temporal dev server) with the scripted model standing in
 * for an OpenAI-compatible provider. The API and the worker run as their own
 * processes, built as production runs them (`npm run build`), so each one's
 * peak memory is its own. Prints create latency against a bare
 * `client.workflow.start` on two Temporal servers (the suite's in-memory dev
 * server, and one keeping its state in a SQLite file as `npm start` runs it),
 * beside a Koa route that does nothing (the floor of any HTTP hop at the same
 * pace), GET latency with no worker, full-job latency on a
 * 500-page docs repository, a burst of concurrent jobs (`BENCH_BURST`, default
 * 50) and the peak memory of the API and of the worker.
 *
 * With `--telemetry`, only the cost of instrumentation on the API's job routes: creates and GETs
 * with metrics and tracing (OTLP/HTTP protobuf to a local receiver) on, against both off, each in
 * an API process of its own, both loaded at the same time in each of BENCH_ROUNDS rounds of one run
 * (default 8), each side starting first in half of them; the figures are the medians over pairs of
 * rounds of each pair's ratios (BENCH_REQUESTS, BENCH_CONCURRENCY, BENCH_ROUNDS change the load).
 *
 * BENCH_API_CPU_PROF=DIR: every API process (with `--telemetry`, each side's server, as
 * `agent-on.cpuprofile` and `agent-off.cpuprofile`) writes a CPU profile of its life there (sampled every
 * 100 µs) when it stops, to read in Chrome DevTools where a create's time goes; the profiler's own
 * cost makes that run's figures slower, so read them from a run without it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { PullStore } from '../core/forge/index.js';
import type { JobView } from '../core/jobs/index.js';
import { jobRunOptions, jobSettings, newJobRecord, runInput } from '../api/agent/create-job.js';
import { AGENT_JOB_WORKFLOW, messageRef, PING_WORKFLOW, SEARCH_ATTRIBUTES, type AgentJobWorkflow, type PingWorkflow } from '../core/contracts/index.js';
import { startFakeModel, type RecordedRequest, type Reply } from '../test/fakes/chat-completions-server.js';
import { createDocsRepo } from '../test/support/docs-repo.js';
import { freePort } from '../test/support/redis.js';
import { testServices } from '../test/support/services.js';
import { REPO_ROOT, TEMPORAL_BIN, temporalEnv } from '../test/support/temporal.js';
import { onSuiteEnd, runScript, stopAtSuiteEnd } from '../test/support/teardown.js';
import { spawnWorker } from '../test/support/worker-process.js';
import { call, pollJob } from '../test/integration/agent-jobs/agent-api.js';
import { compareOnOff, startOtlpSink, startTelemetryServer, type TelemetryServer } from './telemetry-toggle.js';

const SAMPLES = 100;
const FULL_JOBS = 7;
const BURST = Number(process.env.BENCH_BURST ?? 50);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Peak resident memory (VmHWM) of a process, from the kernel; read while it still runs. */
async function peakRssMb(pid: number | 'self'): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmHWM:\s+(\d+)/.exec(status)?.[1];
  if (!kb) throw new Error(`no VmHWM for process ${pid}`);
  return Number(kb) / 1024;
}

/** CPU time (user + system) a process has used so far, in ms, from the kernel; clock-tick resolution, so summed over many requests. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The built API entry point (`node dist/api/server.js`) over the bench's data directory, on a free
 * port, logging warnings only (no line per request on the measured path); ready once `/healthz` answers.
 */
async function spawnApi(env: Record<string, string>): Promise<{ url: string; pid: number }> {
  const port = await freePort();
  // BENCH_API_CPU_PROF=DIR: each API process writes a CPU profile of its life there when it stops (see the top of this file).
  const profile = process.env.BENCH_API_CPU_PROF ? ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${path.resolve(process.env.BENCH_API_CPU_PROF)}`] : [];
  const child = spawn(process.execPath, [...profile, path.join(REPO_ROOT, 'dist', 'api', 'server.js')], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', QUIRE_METRICS_PORT: '0', PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  stopAtSuiteEnd(child);
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 200))) {
    if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode}) before answering`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) return { url, pid: child.pid! };
    if (Date.now() > deadline) throw new Error('the API did not answer /healthz within 60 s');
  }
}

/** Running sums and counts, from an API's metrics listener, of its 201 creates and of its Temporal client's successful starts. */
async function createTimings(metricsPort: number) {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const value = (series: string, labels: string[]) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series}{`) && labels.every((label) => l.includes(label)));
    return line === undefined ? 0 : Number(line.split(' ').pop());
  };
  const request = ['method="POST"', 'route="/v2/agent/:projectId/job"', 'status="201"'];
  const start = ['operation="start"', 'outcome="ok"'];
  const now = {
    requestSum: value('quire_http_request_duration_seconds_sum', request),
    requests: value('quire_http_request_duration_seconds_count', request),
    startSum: value('quire_temporal_request_duration_seconds_sum', start),
    starts: value('quire_temporal_request_duration_seconds_count', start),
  };
  return {
    ...now,
    /** Mean milliseconds of a create and of its start, over those made since `before`. */
    since: (before: typeof now) => ({
      request: ((now.requestSum - before.requestSum) / (now.requests - before.requests)) * 1000,
      start: ((now.startSum - before.startSum) / (now.starts - before.starts)) * 1000,
    }),
  };
}

/** What the API and worker processes need to share the bench's database, Temporal server, queue and model. */
async function processEnv(services: Awaited<ReturnType<typeof testServices>>, modelEnv: Record<string, string>): Promise<Record<string, string>> {
  return {
    ...modelEnv,
    TEMPORAL_ADDRESS: services.config.temporal.address ?? (await temporalEnv()).address,
    TEMPORAL_TASK_QUEUE: services.config.temporal.taskQueue,
    QUIRE_DATA_DIR: services.config.dataDir,
    QUIRE_PUBLIC_URL: services.config.publicUrl,
    QUIRE_EMBEDDER: 'none',
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** A lean keep-alive HTTP call for the latency samples (fetch adds ~1 ms of client overhead per request). */
function quick(url: string, method: string, key: string, body?: unknown, via: http.Agent = agent): Promise<{ status: number; body: JobView }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent: via,
        headers: {
          authorization: `Bearer ${key}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const parsed: JobView = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** What the API's create sends to Temporal, started directly: the baseline the API's overhead is measured against. */
async function startBareJob(services: Awaited<ReturnType<typeof testServices>>, i: number): Promise<void> {
  const job = newJobRecord({ projectId: 'bench', repository: '/srv/docs.git', ref: 'main', model: 'bench-model' });
  const first = messageRef({ id: randomUUID(), prompt: `Say gadget on page ${i + 1}` });
  const input = runInput(job, jobSettings(services.config, false), [first]);
  await services.temporal.workflow.start<AgentJobWorkflow>(AGENT_JOB_WORKFLOW, jobRunOptions(job, input, { summary: first.summary, status: 'active' }, services.config.temporal.taskQueue));
}

/** A trivial workflow's start: the floor of any start. */
async function startPing(services: Awaited<ReturnType<typeof testServices>>, workflowId: string): Promise<void> {
  await services.temporal.workflow.start<PingWorkflow>(PING_WORKFLOW, { taskQueue: services.config.temporal.taskQueue, workflowId, args: ['x'] });
}

/**
 * A second Temporal dev server, as `npm start` runs it on the embedded defaults: its state in a
 * SQLite file (the suite's server keeps it in memory, where a start costs less than any database).
 */
async function fileBackedTemporal(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bench-temporal-'));
  const server = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: TEMPORAL_BIN }, searchAttributes: SEARCH_ATTRIBUTES, extraArgs: ['--log-level', 'error', '--db-filename', path.join(dir, 'temporal.sqlite')] },
  });
  onSuiteEnd(async () => {
    await server.teardown();
    await fs.rm(dir, { recursive: true, force: true });
  });
  return server.address;
}

/**
 * A Koa app in a process of its own that reads a JSON body and answers 201 with a small JSON
 * body, nothing else: what any HTTP hop in front of Temporal costs at the bench's pace (one
 * request every few milliseconds, so each one wakes an idle process, as the API's creates do).
 */
async function spawnFloor(): Promise<string> {
  const port = await freePort();
  const app =
    "const Koa=require('koa');const {koaBody}=require('koa-body');const app=new Koa();app.use(koaBody());" +
    "app.use((ctx)=>{ctx.status=201;ctx.body={id:'job',prompt:ctx.request.body.prompt};});" +
    `app.listen(${port},'127.0.0.1',()=>console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', app], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  stopAtSuiteEnd(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the floor route exited (${code})`)));
  });
  return `http://127.0.0.1:${port}`;
}

/** Three tool calls per job: read the page named in the prompt, replace a sentence, finish. */
function agentScript(req: RecordedRequest): Reply {
  const user = req.body.messages.find((m) => m.role === 'user');
  const page = /page (\d+)/.exec(String(user?.content))?.[1] ?? '1';
  const step = req.body.messages.filter((m) => m.role === 'assistant').length;
  if (step === 0) return { toolCalls: [{ name: 'read_file', arguments: { path: `page-${page}.mdx` } }] };
  if (step === 1) {
    return {
      toolCalls: [
        { name: 'replace_text', arguments: { path: `page-${page}.mdx`, old_text: `Install the widget ${page} `, new_text: `Install the gadget ${page} ` } },
      ],
    };
  }
  if (step === 2) return { toolCalls: [{ name: 'finish', arguments: { title: `Gadget on page ${page}`, summary: 'Renamed.' } }] };
  return { text: 'done' };
}

/**
 * The cost of instrumentation on the job routes: two API servers on the same Temporal server,
 * each in a process of its own, one with metrics and tracing (exported to a local OTLP receiver)
 * and one with neither, loaded at the same time in each round; each round creates jobs (a workflow start
 * each, on a queue no worker polls) and reads them back, from concurrent clients. Throughput and
 * each server's own CPU per request (not the Temporal server's, nor the load client's).
 */
async function telemetryCost(): Promise<void> {
  const requests = Number(process.env.BENCH_REQUESTS ?? 400);
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 10);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
  const model = await startFakeModel(agentScript);
  const sink = await startOtlpSink();
  const temporal = (await temporalEnv()).address;
  const off = await startTelemetryServer('agent', 'off', sink.url, [model.baseUrl, temporal]);
  const on = await startTelemetryServer('agent', 'on', sink.url, [model.baseUrl, temporal]);
  const clientAgent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

  const round = async (server: TelemetryServer, n: number) => {
    const base = `http://127.0.0.1:${server.port}`;
    let next = 0;
    let failures = 0;
    const cpu = server.cpuMs();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < n) {
          next++;
          const created = await quick(`${base}/v2/agent/bench/job`, 'POST', server.key, { prompt: `Say gadget on page ${next}` }, clientAgent);
          const read = await quick(`${base}/v2/agent/bench/job/${created.body.id}`, 'GET', server.key, undefined, clientAgent);
          if (created.status !== 201 || read.status !== 200) failures++;
        }
      }),
    );
    // Two requests per job: a create and a GET.
    return { rps: (2 * n) / ((performance.now() - started) / 1000), cpuMs: (server.cpuMs() - cpu) / (2 * n), failures };
  };

  // A warm-up of 200 jobs a side: after one of 50, both sides' CPU per request still fell by a third
  // over the measured rounds, the instrumented side's faster (its first pairs read 120%, its last 102%).
  await round(off, 200);
  await round(on, 200);
  console.log(`instrumentation cost on the job routes: ${requests} creates + ${requests} GETs a round, ${rounds} rounds (on and off loaded at the same time), ${concurrency} concurrent clients, no worker; CPU of each API process`);
  await compareOnOff(rounds, () => round(off, requests), () => round(on, requests), 'request');
  console.log(`  OTLP exports received ${sink.exports()}`);
  clientAgent.destroy();
  off.stop();
  on.stop();
  sink.close();
  await model.close();
}

async function main(): Promise<void> {
  if (process.argv.includes('--telemetry')) return telemetryCost();
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const model = await startFakeModel(agentScript);
  const modelEnv = { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-bench', QUIRE_MODEL: 'bench-model' };
  const idleQueue = `bench-idle-${randomUUID()}`;
  // Creates and GETs are measured against a task queue no worker polls, as the brief asks.
  const idle = await testServices({ taskQueue: idleQueue, env: modelEnv });
  await idle.tenants.addOrg('bench', { agentCreatesPerHour: 100_000, agentMessagesPerHour: 100_000 });
  const benchKey = (await idle.tenants.createKey('bench', 'admin')).secret;
  const repo = await createDocsRepo({ pages: 500, withNav: true });
  const project = { repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local' as const, allowedModels: [] };
  await idle.tenants.putProject({ id: 'bench', orgId: 'bench', ...project });
  // Its metrics listener too: its own view of where a create's time goes.
  const idleMetricsPort = await freePort();
  const idleProcess = await spawnApi({ ...(await processEnv(idle, modelEnv)), QUIRE_METRICS_PORT: String(idleMetricsPort) });
  const idleApi = idleProcess.url;
  // The same API reading its key, project and organisation from the database on every request: what the tenant cache saves.
  const uncachedProcess = await spawnApi({ ...(await processEnv(idle, modelEnv)), QUIRE_TENANT_CACHE_TTL_MS: '0' });
  const uncachedApi = uncachedProcess.url;
  // The same API and bare starts on a Temporal server that keeps its state in a file, as `npm start` runs it.
  const onFile = await testServices({ taskQueue: idleQueue, env: { ...modelEnv, TEMPORAL_ADDRESS: await fileBackedTemporal() } });
  await onFile.tenants.addOrg('bench', { agentCreatesPerHour: 100_000, agentMessagesPerHour: 100_000 });
  const fileKey = (await onFile.tenants.createKey('bench', 'admin')).secret;
  await onFile.tenants.putProject({ id: 'bench', orgId: 'bench', ...project });
  const fileProcess = await spawnApi(await processEnv(onFile, modelEnv));
  const floor = await spawnFloor();

  // 1. Create latency vs a bare start, interleaved so both see the same server load.
  const bare: number[] = [];
  const bareJob: number[] = [];
  const created: number[] = [];
  const createdUncached: number[] = [];
  const refused: number[] = [];
  const bareOnFile: number[] = [];
  const createdOnFile: number[] = [];
  const floorHop: number[] = [];
  const ids: string[] = [];
  let createCpu = 0;
  let createUncachedCpu = 0;
  for (let i = 0; i < 10; i++) {
    await startPing(idle, `warm-${randomUUID()}`);
    await quick(`${idleApi}/v2/agent/bench/job`, 'POST', benchKey, { prompt: 'warm up on page 1' });
    await quick(`${uncachedApi}/v2/agent/bench/job`, 'POST', benchKey, { prompt: 'warm up on page 1' });
    await startBareJob(onFile, i);
    await quick(`${fileProcess.url}/v2/agent/bench/job`, 'POST', fileKey, { prompt: 'warm up on page 1' });
    await quick(`${floor}/v2/agent/bench/job`, 'POST', benchKey, { prompt: 'warm up on page 1' });
  }
  const timingsBefore = await createTimings(idleMetricsPort);
  for (let i = 0; i < SAMPLES; i++) {
    let t = performance.now();
    await startPing(idle, `bare-${randomUUID()}`);
    bare.push(performance.now() - t);
    t = performance.now();
    await startBareJob(idle, i);
    bareJob.push(performance.now() - t);
    // Cached and uncached in turn first, so neither always follows the bare starts; each API's CPU counted around its own create.
    const createOn = async (pid: number, base: string) => {
      const cpuBefore = await cpuMs(pid);
      const started = performance.now();
      const reply = await quick(`${base}/v2/agent/bench/job`, 'POST', benchKey, { prompt: `Say gadget on page ${i + 1}` });
      const took = performance.now() - started;
      const cpu = (await cpuMs(pid)) - cpuBefore;
      if (reply.status !== 201) throw new Error(`create answered ${reply.status}`);
      return { took, cpu, id: reply.body.id };
    };
    const cachedFirst = i % 2 === 0;
    const first = await createOn(cachedFirst ? idleProcess.pid : uncachedProcess.pid, cachedFirst ? idleApi : uncachedApi);
    const second = await createOn(cachedFirst ? uncachedProcess.pid : idleProcess.pid, cachedFirst ? uncachedApi : idleApi);
    const [withCache, withoutCache] = cachedFirst ? [first, second] : [second, first];
    created.push(withCache.took);
    createCpu += withCache.cpu;
    createdUncached.push(withoutCache.took);
    createUncachedCpu += withoutCache.cpu;
    ids.push(withCache.id);
    t = performance.now();
    await quick(`${idleApi}/v2/agent/bench/job`, 'POST', benchKey, { prompt: '' });
    refused.push(performance.now() - t);
    t = performance.now();
    await quick(`${floor}/v2/agent/bench/job`, 'POST', benchKey, { prompt: `Say gadget on page ${i + 1}` });
    floorHop.push(performance.now() - t);
  }
  // Then the file-backed server's pair, in a loop of its own: its starts leave work behind (its
  // database's writes) that would slow whatever the in-memory loop measured next.
  for (let i = 0; i < SAMPLES; i++) {
    let t = performance.now();
    await startBareJob(onFile, i);
    bareOnFile.push(performance.now() - t);
    t = performance.now();
    if ((await quick(`${fileProcess.url}/v2/agent/bench/job`, 'POST', fileKey, { prompt: `Say gadget on page ${i + 1}` })).status !== 201) throw new Error('create answered other than 201');
    createdOnFile.push(performance.now() - t);
  }
  console.log(
    `create: median ${ms(median(created))} (p95 ${ms(p95(created))}); ` +
      `bare start of the same job workflow (same input, search attributes) median ${ms(median(bareJob))}, ratio ${(median(created) / median(bareJob)).toFixed(2)} (target ≤ 1.3); ` +
      `bare start of a trivial workflow median ${ms(median(bare))}, ratio ${(median(created) / median(bare)).toFixed(2)}`,
  );
  const timings = (await createTimings(idleMetricsPort)).since(timingsBefore);
  console.log(
    `  inside the API (its own metrics, means over the same creates): request ${ms(timings.request)}, ` +
      `of which Temporal's start ${ms(timings.start)}; the rest, the API's own part ${ms(timings.request - timings.start)}`,
  );
  console.log(`  API overhead without Temporal (HTTP, auth, project, validation; a 400 create): median ${ms(median(refused))}`);
  console.log(
    `  a Koa route in a process of its own that only reads the body and answers 201, at the same pace (the floor of any HTTP hop in front of Temporal): median ${ms(median(floorHop))}`,
  );
  console.log(
    `create on a Temporal server keeping its state in a SQLite file, as npm start runs it: median ${ms(median(createdOnFile))} (p95 ${ms(p95(createdOnFile))}); ` +
      `bare start of the same job workflow there median ${ms(median(bareOnFile))}, ratio ${(median(createdOnFile) / median(bareOnFile)).toFixed(2)} (target ≤ 1.3); ` +
      `the create's median over the bare start's: ${ms(median(createdOnFile) - median(bareOnFile))} there, ${ms(median(created) - median(bareJob))} on the in-memory server`,
  );
  console.log(
    `  the same create without the tenant cache (QUIRE_TENANT_CACHE_TTL_MS=0, alternated with the above): median ${ms(median(createdUncached))}, ratio ${(median(createdUncached) / median(bareJob)).toFixed(2)}; ` +
      `API process CPU per create: ${(createCpu / SAMPLES).toFixed(2)} ms with the cache, ${(createUncachedCpu / SAMPLES).toFixed(2)} ms without`,
  );

  // 2. GET with no worker running: answered from the database.
  const gets: number[] = [];
  const getsUncached: number[] = [];
  const getCpuBefore = await Promise.all([cpuMs(idleProcess.pid), cpuMs(uncachedProcess.pid)]);
  for (let i = 0; i < SAMPLES * 2; i++) {
    const id = ids[i % ids.length]!;
    let t = performance.now();
    const reply = await quick(`${idleApi}/v2/agent/bench/job/${id}`, 'GET', benchKey);
    gets.push(performance.now() - t);
    if (reply.status !== 200 || reply.body.status !== 'active') throw new Error(`GET answered ${reply.status}`);
    t = performance.now();
    if ((await quick(`${uncachedApi}/v2/agent/bench/job/${id}`, 'GET', benchKey)).status !== 200) throw new Error('GET answered other than 200');
    getsUncached.push(performance.now() - t);
  }
  const getCpu = ((await cpuMs(idleProcess.pid)) - getCpuBefore[0]) / (SAMPLES * 2);
  const getUncachedCpu = ((await cpuMs(uncachedProcess.pid)) - getCpuBefore[1]) / (SAMPLES * 2);
  console.log(`GET with no worker: median ${ms(median(gets))} (p95 ${ms(p95(gets))}) (target median ≤ 3 ms); API process CPU per GET ${getCpu.toFixed(2)} ms`);
  console.log(`  the same GET without the tenant cache (alternated with the above): median ${ms(median(getsUncached))} (p95 ${ms(p95(getsUncached))}); API process CPU per GET ${getUncachedCpu.toFixed(2)} ms`);

  // 3. Full jobs on the 500-page repository, one at a time, with a worker.
  const workQueue = `bench-work-${randomUUID()}`;
  const work = await testServices({ taskQueue: workQueue, env: modelEnv });
  await work.tenants.addOrg('bench', { agentCreatesPerHour: 100_000, agentMessagesPerHour: 100_000 });
  const workKey = (await work.tenants.createKey('bench', 'admin')).secret;
  await work.tenants.putProject({ id: 'bench', orgId: 'bench', ...project });
  const workEnv = await processEnv(work, modelEnv);
  const worker = spawnWorker(workEnv);
  const workProcess = await spawnApi(workEnv);
  const api = workProcess.url;
  const runJob = async (page: number) => {
    const reply = await call<JobView>(`${api}/v2/agent/bench/job`, 'POST', workKey, { prompt: `Say gadget on page ${page}` });
    if (reply.status !== 201) throw new Error(`create answered ${reply.status}`);
    const done = await pollJob(api, workKey, 'bench', reply.body.id, (j) => j.status !== 'active', 300_000);
    if (done.status !== 'completed' || !done.prLink) throw new Error(`job ended ${JSON.stringify(done)}`);
    return done;
  };
  const full: number[] = [];
  for (let i = 0; i < FULL_JOBS; i++) {
    const t = performance.now();
    await runJob(100 + i);
    full.push(performance.now() - t);
  }
  console.log(`full job (500 pages: clone, 3 tool calls, validate, commit, push, PR): median ${ms(median(full))}, max ${ms(Math.max(...full))} (target median ≤ 3000 ms)`);

  // 4. A burst of 50 jobs submitted at once.
  const t = performance.now();
  const burst = await Promise.all(Array.from({ length: BURST }, (_, i) => runJob(200 + i)));
  const seconds = (performance.now() - t) / 1000;
  const links = new Set(burst.map((j) => j.prLink));
  const pulls = new PullStore(work.database);
  let pullCount = 0;
  while (await pulls.get('bench', pullCount + 1)) pullCount++;
  const commits = await Promise.all(burst.map((j) => repo.git(repo.bareDir, 'rev-list', '--count', `${repo.branch}..quire/${j.id}`)));
  const duplicated = commits.filter((c) => c !== '1').length;
  console.log(
    `burst of ${BURST}: all completed in ${seconds.toFixed(1)} s (${((BURST / seconds) * 60).toFixed(0)} jobs/min); ` +
      `${links.size} distinct PRs for ${BURST} jobs, ${pullCount} PRs in the forge for ${FULL_JOBS + BURST} jobs, ` +
      `${duplicated} branches with other than one commit`,
  );
  const [idlePeak, workPeak, workerPeak, benchPeak] = await Promise.all([peakRssMb(idleProcess.pid), peakRssMb(workProcess.pid), peakRssMb(worker.child.pid!), peakRssMb('self')]);
  console.log(
    `peak memory (VmHWM of each process from /proc/<pid>/status, read before it stops): ` +
      `API ${Math.max(idlePeak, workPeak).toFixed(0)} MB (the API process of creates and GETs ${idlePeak.toFixed(0)} MB, the one of the full jobs and the burst ${workPeak.toFixed(0)} MB); ` +
      `worker ${workerPeak.toFixed(0)} MB; bench process (HTTP client, bare-start client, fake model; neither API nor worker) ${benchPeak.toFixed(0)} MB`,
  );
  await model.close();
}

runScript(main);
