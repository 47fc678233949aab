import assert from 'node:assert/strict';
import net from 'node:net';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ScheduleNotFoundError, WorkflowNotFoundError } from '@temporalio/client';
import { createAutomation } from '../../../core/automations/index.js';
import { domainPollScheduleId, indexWorkflowId } from '../../../core/contracts/index.js';
import { MIGRATIONS } from '../../../core/db/index.js';
import { tempDir, testConfig, testPlatform } from '../../support/services.js';
import { temporalEnv } from '../../support/temporal.js';

/** Runs the real CLI in a child process against a data directory. */
function quire(dataDir: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve(__dirname, '../../../infra/bin/quire.js'), ...args], {
      env: { PATH: process.env.PATH, QUIRE_DATA_DIR: dataDir, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('quire projects|domains update and --help', function () {
  this.timeout(120_000);

  const world = async () => {
    const dir = await tempDir();
    // No tenant cache: each read sees what the CLI processes wrote just before.
    const { tenants } = await testPlatform(await testConfig({ QUIRE_DATA_DIR: dir, QUIRE_TENANT_CACHE_TTL_MS: '0' }));
    assert.equal((await quire(dir, ['orgs', 'add', 'acme'])).code, 0);
    return { dir, reader: tenants };
  };

  it('domains update changes only the flags given; add refuses an existing id and names update', async () => {
    const { dir, reader } = await world();
    const origins = ['--allowed-origin', 'https://docs.acme.test', '--allowed-origin', 'http://localhost:8080'];
    const added = await quire(dir, ['domains', 'add', 'acme/site', '--source', '/srv/site', '--base-url', 'https://docs.acme.test', '--support', 'help@acme.test', ...origins]);
    assert.equal(added.code, 0, added.stderr);
    const updated = await quire(dir, ['domains', 'update', 'acme/site', '--branch', 'next']);
    assert.equal(updated.code, 0, updated.stderr);
    const domain = await reader.getDomain('site');
    assert.equal(domain?.branch, 'next');
    assert.equal(domain?.baseUrl, 'https://docs.acme.test');
    assert.equal(domain?.supportContact, 'help@acme.test');
    assert.deepEqual(domain?.allowedOrigins, ['https://docs.acme.test', 'http://localhost:8080']);

    const again = await quire(dir, ['domains', 'add', 'acme/site', '--source', '/srv/other']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /domain 'site' already exists; change it with: quire domains update acme\/site \[flags\]$/m);
    assert.equal((await reader.getDomain('site'))?.source, '/srv/site', 'the refused add changed nothing');

    const unknown = await quire(dir, ['domains', 'update', 'acme/nowhere', '--branch', 'x']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown domain 'nowhere'/);
  });

  it('projects update changes only the flags given; add refuses an existing id', async () => {
    const { dir, reader } = await world();
    const added = await quire(dir, ['projects', 'add', 'acme/docs', '--repo', '/srv/docs.git', '--docs-path', 'docs', '--models', 'm-a,m-b']);
    assert.equal(added.code, 0, added.stderr);
    const updated = await quire(dir, ['projects', 'update', 'acme/docs', '--branch', 'release']);
    assert.equal(updated.code, 0, updated.stderr);
    const project = await reader.getProject('docs');
    assert.equal(project?.branch, 'release');
    assert.equal(project?.repository, '/srv/docs.git');
    assert.equal(project?.docsPath, 'docs');
    assert.deepEqual(project?.allowedModels, ['m-a', 'm-b']);
    const again = await quire(dir, ['projects', 'add', 'acme/docs', '--repo', '/srv/x.git']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /project 'docs' already exists; change it with: quire projects update acme\/docs \[flags\]$/m);
    // The update named is the owner's, whichever organisation the add gave.
    assert.equal((await quire(dir, ['orgs', 'add', 'globex'])).code, 0);
    const elsewhere = await quire(dir, ['projects', 'add', 'globex/docs', '--repo', '/srv/x.git']);
    assert.equal(elsewhere.code, 1);
    assert.match(elsewhere.stderr, /change it with: quire projects update acme\/docs \[flags\]$/m);
    const gitlab = await quire(dir, ['projects', 'update', 'acme/docs', '--forge', 'gitlab']);
    assert.equal(gitlab.code, 1);
    assert.match(gitlab.stderr, /forgeTokenEnv: is required with forge 'gitlab'/);
    // A repository URL with a token: the listing masks it, the record keeps it.
    const withToken = 'https://x-access-token:ghp_cli_secret@git.acme.test/acme/docs.git';
    assert.equal((await quire(dir, ['projects', 'update', 'acme/docs', '--repo', withToken])).code, 0);
    const listed = await quire(dir, ['projects', 'list']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /acme\/docs\tlocal\thttps:\/\/\*\*\*@git\.acme\.test\/acme\/docs\.git#release/);
    assert.doesNotMatch(listed.stdout, /ghp_cli_secret/);
    assert.equal((await reader.getProject('docs'))?.repository, withToken);
  });

  it('--help lists every flag each command accepts, and quire --help every command', async function () {
    // About 25 CLI processes, each opening the database.
    this.timeout(300_000);
    const dir = await tempDir();
    // `keys list --org x` lists an organisation that exists.
    assert.equal((await quire(dir, ['orgs', 'add', 'x'])).code, 0);
    const expected: Record<string, string[]> = {
      domains: ['--source', '--branch', '--docs-path', '--base-url', '--include-hidden', '--support', '--allowed-origin'],
      projects: ['--repo', '--branch', '--docs-path', '--forge', '--token-env', '--models'],
      keys: ['--org', '--kind', '--expires'],
    };
    for (const [command, flags] of Object.entries(expected)) {
      const help = await quire(dir, [command, '--help']);
      assert.equal(help.code, 0, help.stderr);
      for (const flag of [...flags, '--help']) assert.match(help.stdout, new RegExp(`^  ${flag}\\b`, 'm'), `${command} --help lists ${flag}`);
      // Every flag the help lists is one the parser accepts; an unknown one is refused with exit 2.
      for (const flag of flags) {
        const r = await quire(dir, [command, 'list', flag, ...(flag === '--include-hidden' ? [] : ['x'])]);
        assert.equal(r.code, 0, `${command} accepts ${flag}: ${r.stderr}`);
      }
      assert.equal((await quire(dir, [command, 'list', '--no-such-flag'])).code, 2);
    }
    const all = await quire(dir, ['--help']);
    assert.equal(all.code, 0);
    for (const line of ['domains update ORG/DOMAIN', 'projects update ORG/PROJECT', 'keys create', 'orgs add ORG', 'index DOMAIN', 'automations add', 'webhooks add', 'analytics DOMAIN', 'migrate'])
      assert.ok(all.stdout.includes(line), `quire --help lists ${line}`);
  });
});

describe('quire orgs delete', function () {
  this.timeout(180_000);

  it("deletes an organisation, its keys, projects (with their schedules) and domains, and retires its id; says what is wrong otherwise", async () => {
    const dir = await tempDir();
    const temporal = { TEMPORAL_ADDRESS: (await temporalEnv()).address };
    const reader = await testPlatform(await testConfig({ QUIRE_DATA_DIR: dir, QUIRE_TENANT_CACHE_TTL_MS: '0', ...temporal }));
    assert.equal((await quire(dir, ['orgs', 'add', 'acme'])).code, 0);
    const key = await quire(dir, ['keys', 'create', '--org', 'acme', '--kind', 'admin']);
    const secret = key.stdout.trim().split('\n').at(-1)!;
    assert.equal((await quire(dir, ['projects', 'add', 'acme/docs', '--repo', '/srv/docs.git'])).code, 0);
    assert.equal((await quire(dir, ['domains', 'add', 'acme/site', '--source', '/srv/site'])).code, 0);
    const automation = await createAutomation(reader, 'docs', { prompt: 'Check the links', cron: '@yearly', paused: true });

    // Temporal out of reach: refused before anything changes, and said so.
    const unreachable = await quire(dir, ['orgs', 'delete', 'acme'], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /^quire orgs: error: cannot reach Temporal at 127\.0\.0\.1:1/);
    assert.equal((await reader.tenants.authenticate(secret))?.orgId, 'acme', 'nothing was deleted');

    const deleted = await quire(dir, ['orgs', 'delete', 'acme'], temporal);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stdout, /^deleted organisation acme: 1 key revoked, 0 console sessions ended$/m);
    assert.match(deleted.stdout, /^projects deleted: docs; domains deleted: site$/m);
    assert.equal(await reader.tenants.authenticate(secret), undefined);
    assert.equal(await reader.tenants.getOrg('acme'), undefined);
    await assert.rejects(reader.temporal.schedule.getHandle(automation.scheduleId).describe(), ScheduleNotFoundError);

    const again = await quire(dir, ['orgs', 'delete', 'acme'], temporal);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /unknown organisation 'acme' \(deleted already, or never created\)/);
    const retaken = await quire(dir, ['orgs', 'add', 'acme']);
    assert.equal(retaken.code, 1);
    assert.match(retaken.stderr, /organisation id 'acme' was deleted and stays retired/);
    assert.equal((await quire(dir, ['orgs', 'delete'])).code, 2);
    assert.match((await quire(dir, ['orgs', '--help'])).stdout, /quire orgs delete ORG/);
    assert.match((await quire(dir, ['--help'])).stdout, /orgs delete ORG/);
  });
});

describe('quire domains --poll-minutes', function () {
  this.timeout(120_000);

  it("sets, changes and stops the domain's poll schedule in Temporal; refuses a bad value before opening anything", async () => {
    const dir = await tempDir();
    const temporal = { TEMPORAL_ADDRESS: (await temporalEnv()).address };
    const reader = await testPlatform(await testConfig({ QUIRE_DATA_DIR: dir, QUIRE_TENANT_CACHE_TTL_MS: '0', ...temporal }));
    assert.equal((await quire(dir, ['orgs', 'add', 'acme'])).code, 0);
    const id = `polled-${Date.now().toString(36)}`;
    const schedule = reader.temporal.schedule.getHandle(domainPollScheduleId(id));
    const every = async () => Number((await schedule.describe()).spec.intervals?.[0]?.every);

    const added = await quire(dir, ['domains', 'add', `acme/${id}`, '--source', '/srv/site', '--poll-minutes', '30'], temporal);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /polling the branch every 30 minutes/);
    assert.equal((await reader.tenants.getDomain(id))?.pollMinutes, 30);
    assert.equal(await every(), 30 * 60_000);

    const changed = await quire(dir, ['domains', 'update', `acme/${id}`, '--poll-minutes', '720'], temporal);
    assert.equal(changed.code, 0, changed.stderr);
    assert.equal(await every(), 720 * 60_000);

    for (const bad of ['4', '1441', 'often', '7.5']) {
      const refused = await quire(dir, ['domains', 'update', `acme/${id}`, '--poll-minutes', bad], temporal);
      assert.equal(refused.code, 2, `${bad}: ${refused.stderr}`);
      assert.match(refused.stderr, /--poll-minutes /);
    }
    assert.equal(await every(), 720 * 60_000, 'a refused value changes nothing');

    const stopped = await quire(dir, ['domains', 'update', `acme/${id}`, '--poll-minutes', 'off'], temporal);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stdout, /not polling the branch/);
    assert.equal((await reader.tenants.getDomain(id))?.pollMinutes, undefined);
    await assert.rejects(schedule.describe(), ScheduleNotFoundError);
    assert.match((await quire(dir, ['domains', '--help'])).stdout, /^  --poll-minutes N\|off\b/m);
    // Without the flag the command opens only the database, as before.
    assert.equal((await quire(dir, ['domains', 'update', `acme/${id}`, '--branch', 'next'], { TEMPORAL_ADDRESS: '127.0.0.1:1' })).code, 0);
  });

  it('domains --language sets the docs language; an update that changes it starts an index run, one that does not starts none', async () => {
    const dir = await tempDir();
    // A task queue no worker polls: the run started stays open, to be seen.
    const temporal = { TEMPORAL_ADDRESS: (await temporalEnv()).address, TEMPORAL_TASK_QUEUE: `cli-language-${Date.now().toString(36)}` };
    const reader = await testPlatform(await testConfig({ QUIRE_DATA_DIR: dir, QUIRE_TENANT_CACHE_TTL_MS: '0', ...temporal }));
    assert.equal((await quire(dir, ['orgs', 'add', 'acme'])).code, 0);
    const id = `sprache-${Date.now().toString(36)}`;
    const runs = async () => {
      const handle = reader.temporal.workflow.getHandle(indexWorkflowId(id));
      return handle.describe().then((d) => d.runId, (err: unknown) => (err instanceof WorkflowNotFoundError ? undefined : Promise.reject(err)));
    };

    // A new domain has nothing indexed: its language is for its first run, and Temporal is not called.
    const added = await quire(dir, ['domains', 'add', `acme/${id}`, '--source', '/srv/site', '--language', 'DE'], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
    assert.equal(added.code, 0, added.stderr);
    assert.equal((await reader.tenants.getDomain(id))?.language, 'de');

    const changed = await quire(dir, ['domains', 'update', `acme/${id}`, '--language', 'fr'], temporal);
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stdout, new RegExp(`the language changed: indexing ${id} again`));
    assert.equal((await reader.tenants.getDomain(id))?.language, 'fr');
    const started = await runs();
    assert.ok(started, 'the update started an index run');

    const same = await quire(dir, ['domains', 'update', `acme/${id}`, '--language', 'fr'], temporal);
    assert.equal(same.code, 0, same.stderr);
    assert.doesNotMatch(same.stdout, /indexing/);
    await reader.temporal.workflow.getHandle(indexWorkflowId(id)).terminate('seen');
    const removed = await quire(dir, ['domains', 'update', `acme/${id}`, '--language', 'none'], temporal);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal((await reader.tenants.getDomain(id))?.language, undefined);
    assert.notEqual(await runs(), started, 'removing the language re-indexes too');
    await reader.temporal.workflow.getHandle(indexWorkflowId(id)).terminate('seen');

    const refused = await quire(dir, ['domains', 'update', `acme/${id}`, '--language', 'tlh'], temporal);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /--language /);
    assert.match((await quire(dir, ['domains', '--help'])).stdout, /^  --language TAG\|none\b/m);
  });
});

describe('quire keys, webhooks: dates and unknown ids', function () {
  this.timeout(120_000);

  it('keys create --expires takes a bare date as the end of that day, UTC, and refuses a day that does not exist', async () => {
    const dir = await tempDir();
    assert.equal((await quire(dir, ['orgs', 'add', 'acme'])).code, 0);
    const created = await quire(dir, ['keys', 'create', '--org', 'acme', '--kind', 'admin', '--expires', '2030-01-01']);
    assert.equal(created.code, 0, created.stderr);
    const listed = await quire(dir, ['keys', 'list', '--org', 'acme']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /\texpires 2030-01-02T00:00:00\.000Z\t/);
    const noDay = await quire(dir, ['keys', 'create', '--org', 'acme', '--kind', 'admin', '--expires', '2030-02-30']);
    assert.equal(noDay.code, 2);
    assert.match(noDay.stderr, /--expires: '2030-02-30' is not a date/);
    const past = await quire(dir, ['keys', 'create', '--org', 'acme', '--kind', 'admin', '--expires', '2020-01-01']);
    assert.equal(past.code, 2);
    assert.match(past.stderr, /--expires must be an ISO 8601 date or date-time in the future/);
  });

  it('an unknown project or organisation is an error (exit 1), never an empty listing', async () => {
    const dir = await tempDir();
    assert.equal((await quire(dir, ['orgs', 'add', 'acme'])).code, 0);
    for (const args of [['webhooks', 'list', 'nope'], ['webhooks', 'deliveries', 'nope'], ['webhooks', 'add', 'nope', 'https://hooks.example.com/x']]) {
      const refused = await quire(dir, args);
      assert.equal(refused.code, 1, args.join(' '));
      assert.equal(refused.stdout, '');
      assert.match(refused.stderr, new RegExp(`^quire webhooks: error: unknown project 'nope'; quire projects list names every project`), args.join(' '));
    }
    const keys = await quire(dir, ['keys', 'list', '--org', 'nope']);
    assert.equal(keys.code, 1);
    assert.match(keys.stderr, /^quire keys: error: unknown organisation 'nope'; quire orgs list names every one$/m);
    // Known, with nothing in them: empty listings, exit 0.
    assert.equal((await quire(dir, ['projects', 'add', 'acme/docs', '--repo', '/srv/docs.git'])).code, 0);
    for (const args of [['webhooks', 'list', 'docs'], ['webhooks', 'deliveries', 'docs'], ['keys', 'list', '--org', 'acme']]) {
      const empty = await quire(dir, args);
      assert.deepEqual([empty.code, empty.stdout], [0, ''], `${args.join(' ')}: ${empty.stderr}`);
    }
  });
});

describe('quire migrate', function () {
  this.timeout(60_000);

  it('on an empty database prints every step it applied; run again, that the schema is up to date', async () => {
    const dir = await tempDir();
    const first = await quire(dir, ['migrate']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, `applied: ${MIGRATIONS.map((m) => m.name).join(', ')}\n`);
    const again = await quire(dir, ['migrate']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, 'the database schema is up to date\n');
  });
});

describe('quire during a Redis outage', function () {
  this.timeout(120_000);

  it('revokes a key all the same, warns that the change was not announced, and names no password', async () => {
    const dir = await tempDir();
    // No tenant cache: each read sees what the CLI processes wrote just before.
    const { tenants } = await testPlatform(await testConfig({ QUIRE_DATA_DIR: dir, QUIRE_TENANT_CACHE_TTL_MS: '0' }));
    await tenants.addOrg('acme');
    const key = await tenants.createKey('acme', 'admin');
    // Nothing listens on port 1.
    const revoked = await quire(dir, ['keys', 'revoke', key.record.id], { REDIS_URL: 'redis://:r3dis-pw@127.0.0.1:1', QUIRE_TENANT_CACHE_TTL_MS: '1500' });
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stderr, /^quire keys: warning: cannot reach Redis at REDIS_URL: .*not announced, API processes see them within QUIRE_TENANT_CACHE_TTL_MS \(1500 ms\)$/m);
    assert.doesNotMatch(revoked.stderr, /r3dis-pw/);
    assert.equal(await tenants.authenticate(key.secret), undefined);
  });
});

describe('quire checks its call before it opens anything', function () {
  // Five CLI processes, each loading the TypeScript sources.
  this.timeout(300_000);
  // Nothing listens on port 1: PostgreSQL, Redis and Temporal are all unreachable.
  const unreachable = { QUIRE_DATABASE_URL: 'postgres://quire:s3cret-pw@127.0.0.1:1/quire', TEMPORAL_ADDRESS: '127.0.0.1:1', REDIS_URL: 'redis://127.0.0.1:1' };

  it('--help, an unknown flag and a wrong call answer without the engines; a command that needs the database says it cannot reach it', async () => {
    const dir = await tempDir();
    const help = await quire(dir, ['--help'], unreachable);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^usage: quire <command>/);

    const badFlag = await quire(dir, ['orgs', 'list', '--no-such-flag'], unreachable);
    assert.equal(badFlag.code, 2);
    assert.match(badFlag.stderr, /^quire orgs: .*'--no-such-flag'/);
    const missing = await quire(dir, ['projects', 'add', 'acme/docs'], unreachable);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^quire projects: --repo is required/);
    const badSchedule = await quire(dir, ['automations', 'add', 'docs', '--every', 'soon', '--prompt', 'x'], unreachable);
    assert.equal(badSchedule.code, 2);
    assert.match(badSchedule.stderr, /^quire automations: --every: /);

    const needsDb = await quire(dir, ['orgs', 'list'], unreachable);
    assert.equal(needsDb.code, 1);
    assert.match(needsDb.stderr, /^quire orgs: error: cannot open the database at postgres:\/\/127\.0\.0\.1:1\/quire \(QUIRE_DATABASE_URL\): connect ECONNREFUSED/);
    assert.doesNotMatch(needsDb.stderr, /s3cret-pw/);
  });

  it('a command that calls Temporal names its address and TEMPORAL_ADDRESS when Temporal refuses the connection, or never answers', async () => {
    const dir = await tempDir();
    const refused = await quire(dir, ['index', 'site'], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^quire index: error: cannot reach Temporal at 127\.0\.0\.1:1 \(TEMPORAL_ADDRESS, namespace default\): /);
    // A port that takes the connection and never answers (another service's) is given up, not waited on for ever.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as net.AddressInfo).port;
      const waited = await quire(dir, ['index', 'site'], { TEMPORAL_ADDRESS: `127.0.0.1:${port}` });
      assert.equal(waited.code, 1);
      assert.match(waited.stderr, new RegExp(`^quire index: error: cannot reach Temporal at 127\\.0\\.0\\.1:${port} \\(TEMPORAL_ADDRESS`));
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
