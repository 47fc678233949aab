/**
 * The embedded stack heals itself: the Temporal dev server of a running `npm start` is killed
 * (SIGKILL) while agent jobs run; the start command restarts it on the same data, the API refuses
 * job creates with 503 and Retry-After meanwhile (staying ready, Temporal degraded) and accepts them
 * after, and every job finishes with one pull request.
 * A dev server that cannot come back stops the whole stack, with the reason.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import type { JobView } from '../../../core/jobs/index.js';
import { startFakeModel, type RecordedRequest, type Reply } from '../../fakes/chat-completions-server.js';
import { freePort } from '../../support/redis.js';
import { tempDir, testConfig, testPlatform } from '../../support/services.js';
import { alive, descendants, listening, pidOf, start, waitFor } from '../../support/start-command.js';
import { call, type ApiReply } from '../agent-jobs/agent-api.js';

/** The Temporal CLI itself (not the guard whose arguments name it). */
const TEMPORAL_CLI = /^\S*\/temporal server start-dev/;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ports() {
  return { PORT: String(await freePort()), QUIRE_TEMPORAL_PORT: String(await freePort()), QUIRE_TEMPORAL_UI_PORT: String(await freePort()) };
}

/** One agent turn on the example docs: an edit, then finish. */
function agentStep(req: RecordedRequest): Reply {
  const edited = req.body.messages.some((m) => m.role === 'tool');
  return edited
    ? { toolCalls: [{ name: 'finish', arguments: { title: 'Shorter quickstart', summary: 'Says three minutes.' } }] }
    : {
        toolCalls: [
          {
            name: 'replace_text',
            arguments: { path: 'quickstart.mdx', old_text: 'This guide takes about five minutes.', new_text: 'This guide takes about three minutes.' },
          },
        ],
      };
}

describe('npm start heals itself', function () {
  this.timeout(300_000);

  it('restarts a killed Temporal dev server; the API refuses creates with 503 meanwhile (ready, Temporal degraded) and accepts them after; every job ends with one pull request', async () => {
    // The model holds its first replies until the dev server has been killed: the jobs are mid-turn.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const model = await startFakeModel(async (req) => {
      await released;
      return agentStep(req);
    });
    const dataDir = await tempDir();
    const p = await ports();
    const s = start({ QUIRE_DATA_DIR: dataDir, ...p, QUIRE_MODEL_BASE_URL: model.baseUrl, QUIRE_MODEL_API_KEY: 'sk-test-model', QUIRE_MODEL: 'test-model' });
    const adminKey = /admin key\s+(quire_\S+)/.exec(await waitFor(s, /Press Ctrl-C to stop/, 90_000))?.[1];
    assert.ok(adminKey, s.output());
    const api = `http://127.0.0.1:${p.PORT}/v2/agent/example-docs`;
    const create = (n: number) => call<{ id: string; code?: string }>(`${api}/job`, 'POST', adminKey, { prompt: `Say the quickstart takes three minutes (${n})` });

    const jobs: string[] = [];
    for (let n = 0; n < 3; n++) {
      const created = await create(n);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      jobs.push(created.body.id);
    }
    for (let i = 0; i < 600 && model.requests.filter((r) => r.path.endsWith('/chat/completions')).length < jobs.length; i++) await pause(100);
    assert.ok(model.requests.filter((r) => r.path.endsWith('/chat/completions')).length >= jobs.length, 'every job asked the model');

    const worker = pidOf(s, /worker\/main\.js/);
    const temporal = pidOf(s, TEMPORAL_CLI);
    process.kill(temporal, 'SIGKILL');
    await waitFor(s, /the Temporal dev server exited unexpectedly \(SIGKILL\); restarting it in 1s/, 30_000);

    // While it is down: a new job is refused with 503, Retry-After and a code; reading a job still works.
    let refused: Awaited<ReturnType<typeof create>> | undefined;
    // The API stays ready (it still serves reads and the assistant): Temporal is named degraded, never a 503.
    const readiness = () => call<{ degraded?: string[]; checks: Record<string, string> }>(`http://127.0.0.1:${p.PORT}/readyz`, 'GET', null);
    let degraded = 0;
    for (let n = jobs.length; !refused && !/the Temporal dev server is ready again/.test(s.output()); n++) {
      const [attempt, ready, read]: [ApiReply<{ id: string; code?: string }>, Awaited<ReturnType<typeof readiness>>, ApiReply<JobView>] = await Promise.all([
        create(n),
        readiness(),
        call<JobView>(`${api}/job/${jobs[0]}`, 'GET', adminKey),
      ]);
      if (attempt.status === 201) jobs.push(attempt.body.id);
      else refused = attempt;
      assert.equal(ready.status, 200, `/readyz: ${JSON.stringify(ready.body)}`);
      if (ready.body.degraded?.includes('temporal')) degraded++;
      assert.equal(read.status, 200, `GET job: ${JSON.stringify(read.body)}`);
    }
    assert.ok(refused, `a job created while Temporal was down was refused:\n${s.output()}`);
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.equal(refused.body.code, 'unavailable');
    assert.ok(degraded > 0, '/readyz named Temporal degraded while it was down');

    // Back: Temporal answers again, jobs accepted again, on the same data (the jobs started before are still there).
    await waitFor(s, /the Temporal dev server is ready again/, 90_000);
    let check = (await readiness()).body.checks.temporal;
    for (let i = 0; i < 300 && check !== 'ok'; i++) check = await pause(100).then(async () => (await readiness()).body.checks.temporal);
    assert.equal(check, 'ok', '/readyz says Temporal answers once it is back');
    const after = await create(jobs.length);
    assert.equal(after.status, 201, JSON.stringify(after.body));
    jobs.push(after.body.id);
    assert.ok(alive(worker), 'the worker rode out the restart (it reconnects by itself)');
    release();

    const done: JobView[] = [];
    for (const id of jobs) {
      let job: JobView | undefined;
      for (let i = 0; i < 1200 && (!job || job.status === 'active'); i++) {
        const read: ApiReply<JobView> = await call<JobView>(`${api}/job/${id}`, 'GET', adminKey);
        assert.equal(read.status, 200, JSON.stringify(read.body));
        job = read.body;
        if (job.status === 'active') await pause(100);
      }
      assert.ok(job && job.status === 'completed', `${JSON.stringify(job)}\n${s.output()}`);
      done.push(job);
    }
    const links = done.map((j) => j.prLink);
    assert.ok(links.every((l) => l && /\/pulls\/\d+$/.test(new URL(l).pathname)), JSON.stringify(links));
    assert.equal(new Set(links).size, jobs.length, 'one pull request per job');
    const { pulls } = await testPlatform(await testConfig({ QUIRE_DATA_DIR: dataDir }));
    for (let n = 1; n <= jobs.length; n++) assert.ok(await pulls.get('example-docs', n), `pull request ${n}`);
    assert.equal(await pulls.get('example-docs', jobs.length + 1), undefined, 'and no more than one per job');
    console.log(`      (${jobs.length} jobs, ${model.requests.length} model requests)`);

    s.child.kill('SIGINT');
    assert.equal(await s.exit, 0, s.output());
  });

  it('a dev server that keeps failing to start stops the whole stack, with the reason', async () => {
    const p = await ports();
    const s = start({ QUIRE_DATA_DIR: await tempDir(), ...p });
    await waitFor(s, /Press Ctrl-C to stop/, 90_000);
    const family = descendants(s.child.pid!).map((d) => d.pid);
    process.kill(pidOf(s, TEMPORAL_CLI), 'SIGKILL');
    await waitFor(s, /the Temporal dev server exited unexpectedly \(SIGKILL\); restarting it in 1s/, 30_000);
    // Something else takes its port before the restart: every start now fails at once.
    const squatter = net.createServer();
    await new Promise<void>((resolve, reject) => {
      squatter.once('error', reject);
      squatter.listen(Number(p.QUIRE_TEMPORAL_PORT), '127.0.0.1', resolve);
    });
    try {
      assert.equal(await s.exit, 1, s.output());
    } finally {
      squatter.close();
    }
    assert.match(
      s.output(),
      new RegExp(
        `quire: error: gave up on the Temporal dev server: it failed to start 5 times in a row ` +
          `\\(last: could not start: port ${p.QUIRE_TEMPORAL_PORT} is already in use; stop the other process or set QUIRE_TEMPORAL_PORT\\); ` +
          `see temporal.log in the data directory; everything was stopped`,
      ),
    );
    assert.match(s.output(), /the Temporal dev server could not start: port \d+ is already in use.*; restarting it in 2s/);
    assert.deepEqual(family.filter(alive), [], 'the worker and the API were stopped too');
    assert.equal(await listening(Number(p.PORT)), false, 'the API port is closed');
  });
});
