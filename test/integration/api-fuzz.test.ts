/**
 * The OpenAPI document against the real API: schemathesis (installed by
 * `infra/setup.sh --test` into .tools/schemathesis) fuzzes every operation of
 * GET /openapi.json with valid keys, on the real stack: the Temporal dev
 * server and a worker, a docs repository in git, a domain indexed by the real
 * indexing workflow, and the fake model provider (test/fakes), which answers
 * every request with a short text, so agent turns end without changes and the
 * assistant answers through the model. Any 5xx, undocumented status, content
 * type or response schema fails the test, with schemathesis's report.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createApp } from '../../api/app.js';
import type { ApiServices } from '../../api/services.js';
import { INDEX_DOMAIN_WORKFLOW, indexDomainStartOptions, type IndexDomainWorkflow } from '../../core/contracts/index.js';
import { startFakeModel } from '../fakes/chat-completions-server.js';
import { createDocsRepo } from '../support/docs-repo.js';
import { serve, tempDir, testServices } from '../support/services.js';
import { REPO_ROOT, startWorker } from '../support/temporal.js';

const SCHEMATHESIS = path.join(REPO_ROOT, '.tools', 'schemathesis', 'bin', 'st');
const CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance'];
/** Examples per operation and phase: the two runs stay within a few minutes on two cores. */
const MAX_EXAMPLES = Number(process.env.FUZZ_MAX_EXAMPLES ?? 25);
const HIGH = 1_000_000_000;

interface FuzzRun {
  code: number;
  output: string;
}

/** Runs schemathesis with the key in its environment (never in argv), the seeded ids as path parameters, and the run's hooks file if any. */
async function schemathesis(url: string, key: string, pathRegex: string, dir: string, hooks?: string): Promise<FuzzRun> {
  const config = path.join(dir, `schemathesis-${randomUUID()}.toml`);
  await fs.writeFile(
    config,
    [
      'headers = { Authorization = "Bearer ${FUZZ_API_KEY}" }',
      '[parameters]',
      'projectId = "docs"',
      'domain = "fuzz-docs"',
      'domainId = "fuzz-docs"',
    ].join('\n'),
  );
  const args = [
    '--config-file', config,
    'run', `${url}/openapi.json`,
    '--url', url,
    '--include-path-regex', pathRegex,
    '--checks', CHECKS.join(','),
    '--phases', 'examples,coverage,fuzzing',
    '--max-examples', String(MAX_EXAMPLES),
    // One worker: hypothesis's lambda descriptions call ast.parse, which CPython 3.11 breaks across threads.
    '--workers', '1',
    '--seed', '1',
    '--no-color',
    '--request-timeout', '30',
  ];
  return new Promise((resolve) => {
    // Its cache (.schemathesis/) goes to the temporary folder, not the checkout.
    const env = { ...process.env, FUZZ_API_KEY: key, ...(hooks ? { SCHEMATHESIS_HOOKS: hooks } : {}) };
    execFile(SCHEMATHESIS, args, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err && typeof err.code === 'number' ? err.code : err ? 1 : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

/** The statuses the API answered on a route template, from its request-duration histogram. */
async function statusesOn(services: ApiServices, route: string): Promise<string[]> {
  const metric = await services.metrics.registry.getSingleMetric('quire_http_request_duration_seconds')?.get();
  const statuses = (metric?.values ?? []).filter((v) => v.labels.route === route && v.value > 0).map((v) => String(v.labels.status));
  return [...new Set(statuses)].sort();
}

describe('the OpenAPI document, fuzzed with schemathesis against the real stack', function () {
  this.timeout(900_000);

  it('every operation: no 5xx, and statuses, content types and bodies as documented', async () => {
    await fs.access(SCHEMATHESIS).catch(() => {
      throw new Error(`schemathesis is not installed at ${SCHEMATHESIS}; run infra/setup.sh --test`);
    });
    const taskQueue = `fuzz-${randomUUID()}`;
    // Without a model, creating a job is refused with 503 model_not_configured: schemathesis counts any 5xx as a server error.
    const model = await startFakeModel(() => ({ text: 'Nothing needs to change.' }));
    const modelEnv = { QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' };
    // The domain's push secret is the key of the hook's runs: its bearer signs every request that
    // carries no GitHub or GitLab headers, so those reach the body's validation and the branch rules.
    const pushSecret = `fuzz-push-${randomUUID()}`;
    const services = await testServices({ taskQueue, env: { ...modelEnv, FUZZ_DOCS_PUSH_SECRET: pushSecret } });
    await startWorker(services, { taskQueue });

    const orgId = 'fuzz';
    await services.tenants.addOrg(orgId, {
      agentCreatesPerHour: HIGH,
      agentMessagesPerHour: HIGH,
      assistantPerKeyPerMonth: HIGH,
      assistantPerOrgPerHour: HIGH,
      assistantPerIpPerDay: HIGH,
    });
    const adminKey = (await services.tenants.createKey(orgId, 'admin')).secret;
    const assistantKey = (await services.tenants.createKey(orgId, 'assistant')).secret;
    const repo = await createDocsRepo({ pages: 5, withNav: true });
    await services.tenants.putProject({ id: 'docs', orgId, repository: repo.bareDir, branch: repo.branch, docsPath: repo.docsPath, forge: 'local', allowedModels: [] });
    await services.tenants.putDomain({
      id: 'fuzz-docs',
      orgId,
      source: repo.bareDir,
      branch: repo.branch,
      docsPath: repo.docsPath,
      baseUrl: 'https://docs.example.com',
      includeHidden: false,
      pushSecretEnv: 'FUZZ_DOCS_PUSH_SECRET',
    });
    const indexing = await services.temporal.workflow.signalWithStart<IndexDomainWorkflow>(INDEX_DOMAIN_WORKFLOW, indexDomainStartOptions('fuzz-docs', taskQueue));
    await indexing.result();

    const { url } = await serve(createApp(services), services.config.http);
    const dir = await tempDir('quire-fuzz-');
    const runs: Array<{ name: string; key: string; paths: string; hooks?: string }> = [
      { name: 'admin key', key: adminKey, paths: '^/(v2/agent|v1/admin|v1/agent|v1/analytics|forge)/' },
      { name: 'assistant key', key: assistantKey, paths: '^/(discovery/|mcp/|healthz|readyz|openapi\\.json)' },
      // With the forge headers as generated (mostly refused, 401), then without them (signed by the bearer).
      { name: 'push secret', key: pushSecret, paths: '^/v2/hooks/' },
      { name: 'push secret, bearer only', key: pushSecret, paths: '^/v2/hooks/', hooks: path.join(__dirname, 'fuzz-bearer-only.py') },
    ];
    const failures: string[] = [];
    for (const run of runs) {
      const result = await schemathesis(url, run.key, run.paths, dir, run.hooks);
      // Its closing summary: operations tested, test cases generated and passed, warnings.
      const lines = result.output.split('\n');
      const summary = lines.slice(lines.findIndex((l) => /={3,} SUMMARY =/.test(l)) + 1).filter((l) => l.trim() && !/^Seed:/.test(l));
      console.log(`    schemathesis (${run.name}):\n      ${summary.join('\n      ')}`);
      if (result.code !== 0) failures.push(`schemathesis with the ${run.name} exited ${result.code}:\n${result.output}`);
    }
    assert.deepEqual(failures, [], failures.join('\n\n'));
    // The push hook was fuzzed past its signature check: bodies its schema refused, and pushes it read.
    const hook = await statusesOn(services, '/v2/hooks/domains/:domainId/push');
    for (const status of ['202', '400', '401']) assert.ok(hook.includes(status), `the push hook answered ${status} to some request (it answered ${hook.join(', ')})`);
  });
});
