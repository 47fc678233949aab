import assert from 'node:assert/strict';
import { ConfigError, isOwnSetting, loadConfig } from '../../../core/config.js';

describe('configuration', () => {
  it('has embedded defaults and no secret defaults', () => {
    const c = loadConfig({}, '/srv/quire');
    assert.equal(c.port, 3000);
    assert.equal(c.dataDir, '/srv/quire/.quire');
    assert.equal(c.temporal.address, undefined);
    assert.equal(c.temporal.embeddedPort, 7233);
    assert.equal(c.temporal.embeddedUiPort, 8233);
    assert.equal(c.redisUrl, undefined);
    assert.equal(c.model, undefined);
    assert.equal(c.temporal.apiKey, undefined);
    assert.equal(c.qdrant, undefined);
    assert.equal(c.bodyLimitBytes, 1024 * 1024);
  });

  it('reads production settings', () => {
    const c = loadConfig({
      TEMPORAL_ADDRESS: 'temporal:7233',
      REDIS_URL: 'redis://redis:6379',
      QDRANT_URL: 'http://qdrant:6333',
      QUIRE_MODEL_BASE_URL: 'http://llm:8000/v1',
      QUIRE_MODEL: 'gpt-x',
      QUIRE_DATA_DIR: '/data',
      QUIRE_BODY_LIMIT: '512kb',
    });
    assert.equal(c.temporal.address, 'temporal:7233');
    assert.equal(c.redisUrl, 'redis://redis:6379');
    assert.equal(c.qdrant?.url, 'http://qdrant:6333');
    assert.deepEqual(c.model, {
      provider: 'openai',
      baseUrl: 'http://llm:8000/v1',
      apiKey: undefined,
      apiVersion: undefined,
      proxy: { http: undefined, https: undefined, noProxy: undefined },
      streamIdleTimeoutMs: 60_000,
      name: 'gpt-x',
    });
    assert.equal(c.bodyLimitBytes, 512 * 1024);
  });

  it('reads the agent write limits as sizes and counts', () => {
    const c = loadConfig({ QUIRE_AGENT_MAX_FILE_BYTES: '256kb', QUIRE_AGENT_MAX_FILES_PER_TURN: '20', QUIRE_AGENT_MAX_TURN_BYTES: '2mb' });
    assert.deepEqual([c.agent.maxFileBytes, c.agent.maxFilesPerTurn, c.agent.maxTurnBytes], [256 * 1024, 20, 2 * 1024 * 1024]);
    const defaults = loadConfig({});
    assert.deepEqual([defaults.agent.maxFileBytes, defaults.agent.maxFilesPerTurn, defaults.agent.maxTurnBytes], [1024 * 1024, 200, 10 * 1024 * 1024]);
    assert.throws(() => loadConfig({ QUIRE_AGENT_MAX_FILE_BYTES: '0' }), /QUIRE_AGENT_MAX_FILE_BYTES: must be at least 1 byte/);
    // A turn's changed files cross Temporal in its result: beyond 1,000 they could pass its 2 MB payload limit.
    assert.throws(() => loadConfig({ QUIRE_AGENT_MAX_FILES_PER_TURN: '1001' }), /QUIRE_AGENT_MAX_FILES_PER_TURN: must be at most 1000/);
  });

  it('reads the assistant rewrite and search settings, on by default, within their bounds', () => {
    const defaults = loadConfig({});
    assert.deepEqual(defaults.assistant, { promptTokens: 12_000, rewriteTimeoutMs: 2_500, maxSearches: 3, searchTimeoutMs: 3_000 });
    const c = loadConfig({ QUIRE_ASSISTANT_QUERY_REWRITE: 'false', QUIRE_ASSISTANT_MAX_SEARCHES: '0', QUIRE_ASSISTANT_SEARCH_TIMEOUT_MS: '900' });
    assert.deepEqual([c.assistant.rewriteTimeoutMs, c.assistant.maxSearches, c.assistant.searchTimeoutMs], [undefined, 0, 900]);
    assert.throws(() => loadConfig({ QUIRE_ASSISTANT_MAX_SEARCHES: '4' }), /QUIRE_ASSISTANT_MAX_SEARCHES: must be at most 3/);
    assert.throws(() => loadConfig({ QUIRE_ASSISTANT_REWRITE_TIMEOUT_MS: '0' }), /QUIRE_ASSISTANT_REWRITE_TIMEOUT_MS: must be at least 1/);
    assert.throws(() => loadConfig({ QUIRE_ASSISTANT_QUERY_REWRITE: 'sometimes' }), /QUIRE_ASSISTANT_QUERY_REWRITE: must be true or false/);
  });

  it('reads the console session lifetime in hours, 12 by default, at most 30 days', () => {
    assert.equal(loadConfig({}).console.sessionHours, 12);
    assert.equal(loadConfig({ QUIRE_CONSOLE_SESSION_HOURS: '2' }).console.sessionHours, 2);
    assert.throws(() => loadConfig({ QUIRE_CONSOLE_SESSION_HOURS: '0' }), /QUIRE_CONSOLE_SESSION_HOURS: must be at least 1/);
    assert.throws(() => loadConfig({ QUIRE_CONSOLE_SESSION_HOURS: '1.5' }), /QUIRE_CONSOLE_SESSION_HOURS: must be a whole number/);
    assert.throws(() => loadConfig({ QUIRE_CONSOLE_SESSION_HOURS: '721' }), /QUIRE_CONSOLE_SESSION_HOURS: must be at most 720/);
  });

  it('gives the console QUIRE_PUBLIC_URL only when it is set, without trailing slashes, path kept', () => {
    const unset = loadConfig({ PORT: '4000' });
    assert.deepEqual([unset.publicUrl, unset.console.publicUrl], ['http://localhost:4000', undefined]);
    const set = loadConfig({ QUIRE_PUBLIC_URL: 'https://docs-ai.example.com/quire//' });
    assert.deepEqual([set.publicUrl, set.console.publicUrl], ['https://docs-ai.example.com/quire', 'https://docs-ai.example.com/quire']);
  });

  it('reads how long tenant records are cached, 2 s by default, 0 for none, at most a minute', () => {
    assert.equal(loadConfig({}).tenantCacheTtlMs, 2000);
    assert.equal(loadConfig({ QUIRE_TENANT_CACHE_TTL_MS: '0' }).tenantCacheTtlMs, 0);
    assert.throws(() => loadConfig({ QUIRE_TENANT_CACHE_TTL_MS: '-1' }), /QUIRE_TENANT_CACHE_TTL_MS: must be a whole number/);
    assert.throws(() => loadConfig({ QUIRE_TENANT_CACHE_TTL_MS: '60001' }), /QUIRE_TENANT_CACHE_TTL_MS: must be at most 60000/);
    assert.deepEqual(loadConfig({}).adminLocalPaths, []);
    assert.deepEqual(loadConfig({ QUIRE_ADMIN_LOCAL_PATHS: ' /srv/docs/ , /srv/repos,' }).adminLocalPaths, ['/srv/docs', '/srv/repos']);
    assert.throws(() => loadConfig({ QUIRE_ADMIN_LOCAL_PATHS: '/srv/docs,repos' }), /QUIRE_ADMIN_LOCAL_PATHS: must be absolute folder paths/);
  });

  it('reads from how many milliseconds a database statement is traced, 5 by default, 0 for every one, at most a minute', () => {
    assert.equal(loadConfig({}).traceSlowQueryMs, 5);
    assert.equal(loadConfig({ QUIRE_TRACE_SLOW_QUERY_MS: '0' }).traceSlowQueryMs, 0);
    assert.throws(() => loadConfig({ QUIRE_TRACE_SLOW_QUERY_MS: '2.5' }), /QUIRE_TRACE_SLOW_QUERY_MS: must be a whole number/);
    assert.throws(() => loadConfig({ QUIRE_TRACE_SLOW_QUERY_MS: '60001' }), /QUIRE_TRACE_SLOW_QUERY_MS: must be at most 60000/);
  });

  it('names every bad variable and its rule', () => {
    assert.throws(
      () => loadConfig({ PORT: 'eighty', REDIS_URL: 'localhost:6379', QUIRE_TEMPORAL_PORT: '70000', QUIRE_TRUST_PROXY: 'maybe' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /PORT: must be a whole number/);
        assert.match(err.message, /REDIS_URL: must start with redis:\/\//);
        assert.match(err.message, /QUIRE_TEMPORAL_PORT: must be a port/);
        assert.match(err.message, /QUIRE_TRUST_PROXY: must be true or false/);
        return true;
      },
    );
  });

  it('refuses values that would only fail later: an endpoint without http(s)://, an unparsable database URL, blanks, a short operator token, clashing ports and intervals, sizes and times past their bounds', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (err) {
        assert.ok(err instanceof ConfigError);
        return err.problems;
      }
    };
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ QUIRE_MODEL: 'm', QUIRE_MODEL_BASE_URL: 'localhost:11434/v1' }, /^QUIRE_MODEL_BASE_URL: must start with http:\/\/ or https:\/\//],
      [{ QDRANT_URL: 'localhost:6333' }, /^QDRANT_URL: must start with http:\/\/ or https:\/\//],
      [{ QUIRE_PUBLIC_URL: 'javascript:alert(1)' }, /^QUIRE_PUBLIC_URL: must start with http:\/\/ or https:\/\//],
      [{ QUIRE_PUBLIC_URL: 'https://docs-ai.example.com/quire?x=1' }, /^QUIRE_PUBLIC_URL: must be a base URL with no \?query or #fragment/],
      [{ QUIRE_PUBLIC_URL: 'https://docs-ai.example.com/quire#top' }, /^QUIRE_PUBLIC_URL: must be a base URL with no \?query or #fragment/],
      [{ QUIRE_DATABASE_URL: 'postgres://u:pw@db:99999/quire' }, /^QUIRE_DATABASE_URL: must be a postgres:\/\/ URL that parses: a host, and a port from 1 to 65535/],
      [{ QUIRE_DATABASE_URL: 'mysql://db/quire' }, /^QUIRE_DATABASE_URL: must be a postgres:\/\/ URL such as postgres:\/\/db\.example:5432\/quire/],
      [{ QUIRE_MODEL: ' ' }, /^QUIRE_MODEL: must not be only spaces/],
      [{ HOST: 'not a host' }, /^HOST: must be a host name or an IP address/],
      [{ QUIRE_OPERATOR_TOKEN: 'a' }, /^QUIRE_OPERATOR_TOKEN: must be at least 16 characters/],
      [{ PORT: '9464' }, /^QUIRE_METRICS_PORT: must differ from PORT \(9464\)/],
      [{ QUIRE_TEMPORAL_UI_PORT: '7233' }, /^QUIRE_TEMPORAL_UI_PORT: must differ from QUIRE_TEMPORAL_PORT/],
      [{ QUIRE_WORKER_METRICS_PORT: '3000' }, /^QUIRE_WORKER_METRICS_PORT: must differ from PORT \(3000\)/],
      [{ QUIRE_METRICS_PORT: '7233' }, /^QUIRE_TEMPORAL_PORT: must differ from QUIRE_METRICS_PORT \(7233\)/],
      [{ QUIRE_TEMPORAL_PORT: '3000' }, /^QUIRE_TEMPORAL_PORT: must differ from PORT/],
      [{ QUIRE_EMBEDDER_PORT: '8233' }, /^QUIRE_EMBEDDER_PORT: must differ from QUIRE_TEMPORAL_UI_PORT/],
      [{ REDIS_URL: 'redis://127.0.0.1:abc' }, /^REDIS_URL: must be a URL that parses/],
      [{ HTTPS_PROXY: 'http://proxy:abc' }, /^HTTPS_PROXY: must be a proxy URL/],
      [{ QUIRE_GIT_AUTHOR_NAME: '<>' }, /^QUIRE_GIT_AUTHOR_NAME: must not contain <, > or a line break/],
      [{ QUIRE_GIT_AUTHOR_NAME: ' .; ' }, /^QUIRE_GIT_AUTHOR_NAME: must hold a letter or digit/],
      [{ QUIRE_WEBHOOK_INITIAL_INTERVAL_MS: '5000', QUIRE_WEBHOOK_MAX_INTERVAL_SECONDS: '1' }, /^QUIRE_WEBHOOK_INITIAL_INTERVAL_MS: must not exceed QUIRE_WEBHOOK_MAX_INTERVAL_SECONDS/],
      [{ QUIRE_WORKER_SHUTDOWN_GRACE_MS: '99999999999' }, /^QUIRE_WORKER_SHUTDOWN_GRACE_MS: must be at most 3600000/],
      [{ QUIRE_AGENT_MAX_SECONDS: '9000000000000000' }, /^QUIRE_AGENT_MAX_SECONDS: must be at most 86400/],
      [{ QUIRE_AGENT_MAX_TURN_BYTES: `${'9'.repeat(400)}` }, /^QUIRE_AGENT_MAX_TURN_BYTES: must be at most 1024mb/],
    ];
    for (const [env, expected] of cases) {
      const found = problems(env);
      assert.ok(found.some((p) => expected.test(p)), `${JSON.stringify(env)}: ${JSON.stringify(found)}`);
      assert.ok(!found.some((p) => p.includes('pw@')), 'no credentials repeated');
    }
    // Each one's good spelling passes.
    assert.deepEqual(
      problems({
        QUIRE_MODEL: 'm',
        QUIRE_MODEL_BASE_URL: 'http://localhost:11434/v1',
        QUIRE_DATABASE_URL: 'postgres://u:pw@db:5432/quire',
        HOST: '0.0.0.0',
        QUIRE_OPERATOR_TOKEN: 'a'.repeat(16),
        REDIS_URL: 'redis://:pw@127.0.0.1:6379/0',
        HTTPS_PROXY: 'http://proxy.example:3128',
        QUIRE_GIT_AUTHOR_NAME: 'Docs Bot (Quire)',
        QUIRE_METRICS_PORT: '0',
        QUIRE_WORKER_METRICS_PORT: '0',
      }),
      [],
    );
  });

  it('reads a variable of ours set to the empty string as unset, as an env file and compose give it', () => {
    const empty = loadConfig({ QUIRE_MODEL_BASE_URL: '', QUIRE_MODEL_API_KEY: '', QUIRE_MODEL: '', QUIRE_EMBEDDING_MODEL: '', PORT: '', QUIRE_EMBEDDER: '' }, '/srv/quire');
    assert.deepEqual(empty, loadConfig({}, '/srv/quire'));
    // An unknown variable is still named, empty or not.
    assert.throws(() => loadConfig({ QUIRE_MODLE: '' }), (err: unknown) => err instanceof ConfigError && err.problems.some((p) => p.startsWith('QUIRE_MODLE: unknown variable')));
  });

  it('rejects unknown QUIRE_ variables (typos) and half-set settings', () => {
    assert.throws(() => loadConfig({ QUIRE_DATADIR: '/x' }), /QUIRE_DATADIR: unknown variable/);
    assert.throws(() => loadConfig({ QUIRE_MODEL_BASE_URL: 'http://llm/v1' }), /QUIRE_MODEL: required when QUIRE_MODEL_BASE_URL/);
    assert.throws(() => loadConfig({ TEMPORAL_TLS_CERT: '/c.pem' }), /TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY must be set together/);
  });

  it('reads the proxy variables once, the lower-case spelling first, for the model and embedding endpoints and the webhooks', () => {
    const c = loadConfig({
      QUIRE_MODEL: 'm',
      QUIRE_EMBEDDING_MODEL: 'e',
      HTTPS_PROXY: 'http://upper:3128',
      https_proxy: 'http://lower:3128',
      HTTP_PROXY: 'http://plain:3128',
      NO_PROXY: 'localhost,.internal',
    });
    const proxy = { http: 'http://plain:3128', https: 'http://lower:3128', noProxy: 'localhost,.internal' };
    assert.deepEqual(c.model?.proxy, proxy);
    assert.deepEqual(c.embedding?.proxy, proxy);
    assert.deepEqual(c.proxy, proxy);
  });

  it("tells Quire's own settings (and its libraries') from variables a project or webhook may name", () => {
    for (const name of ['QUIRE_DATABASE_URL', 'QUIRE_MODEL_API_KEY', 'REDIS_URL', 'QDRANT_API_KEY', 'HTTPS_PROXY', 'TEMPORAL_API_KEY', 'TEMPORAL_TLS_KEY', 'OTEL_EXPORTER_OTLP_HEADERS', 'PGPASSWORD'])
      assert.ok(isOwnSetting(name), name);
    for (const name of ['GITHUB_TOKEN', 'ACME_GITLAB_TOKEN', 'QUIRE_HOOK_SECRET', 'PG', 'PAGER', 'toString', 'constructor']) assert.ok(!isOwnSetting(name), name);
  });

  it('refuses credentials in an endpoint URL, naming the variable and not the value', () => {
    for (const name of ['QUIRE_MODEL_BASE_URL', 'QUIRE_EMBEDDING_BASE_URL', 'QDRANT_URL']) {
      const env = { [name]: 'https://user:s3cret@host.example/v1', QUIRE_MODEL: 'm', QUIRE_EMBEDDER: 'openai', QUIRE_EMBEDDING_MODEL: 'e' };
      assert.throws(() => loadConfig(env), (err: unknown) => err instanceof ConfigError && err.problems.some((p) => p.startsWith(`${name}: must not hold credentials`)) && !err.message.includes('s3cret'), name);
    }
  });

  it('ignores variables that are not ours', () => {
    assert.doesNotThrow(() => loadConfig({ HOME: '/root', NODE_ENV: 'production' }));
  });
});
