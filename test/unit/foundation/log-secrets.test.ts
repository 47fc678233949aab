/** No key, token or URL credential reaches a log line, whichever part of the line carries it. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger, scrubSecrets, secretValuesOf } from '../../../core/logger.js';
import { newSecret } from '../../../core/tenants/keys.js';

function capture(secrets: string[] = []) {
  const lines: string[] = [];
  const logger = createLogger('info', 'test', new Writable({ write: (chunk: Buffer, _e, done) => void (lines.push(chunk.toString()), done()) }), secrets);
  return { logger, lines };
}

describe('log lines and secrets', () => {
  const key = newSecret('admin');
  const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123';
  const url = `https://x-access-token:${token}@github.com/acme/docs.git`;

  it("masks them in an error's message, stack and causes, in string fields and in the message", () => {
    const { logger, lines } = capture();
    const cause = new Error(`fatal: could not read from ${url}`);
    const err = new Error(`clone failed for key ${key}`, { cause });
    logger.error({ err, reason: `upstream said Bearer ${key}`, jobId: 'job_1', turn: 2 }, `retrying ${url}`);
    logger.warn({ err: `written with ${key}` }, 'not stored');
    const text = lines.join('');
    for (const secret of [key, token]) assert.ok(!text.includes(secret), `${secret} in ${text}`);
    const [first, second] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const logged = first!.err as { type: string; message: string; stack: string };
    // What is not secret stays: the error's class, the rest of its words and its cause's, the other fields.
    assert.equal(logged.type, 'Error');
    assert.equal(logged.message, 'clone failed for key [redacted]: fatal: could not read from https://[redacted]github.com/acme/docs.git');
    assert.match(logged.stack, /^Error: clone failed for key \[redacted\]\n\s+at /);
    assert.match(logged.stack, /caused by: Error: fatal: could not read from https:\/\/\[redacted\]github\.com\/acme\/docs\.git/);
    assert.equal(first!.reason, 'upstream said Bearer [redacted]');
    assert.equal(first!.jobId, 'job_1');
    assert.equal(first!.turn, 2);
    assert.equal(first!.msg, 'retrying https://[redacted]github.com/acme/docs.git');
    assert.equal(second!.err, 'written with [redacted]');
  });

  it('masks the values of the configured secrets whatever their shape: keys, tokens and passwords named so, and URL passwords', () => {
    const env = {
      QUIRE_MODEL_API_KEY: 'gsk_GROQ.secret+key(01234)',
      QDRANT_API_KEY: 'q-0123456789abcdef',
      GITHUB_TOKEN_ACME: 'a1b2c3d4e5f6a7b8',
      QUIRE_DATABASE_URL: 'postgres://quire:p%40ss-w0rd-long@db:5432/quire',
      PORT: '3000',
      QUIRE_MODEL: 'gpt-4o-mini-2024',
      TOKEN_SHORT: 'abc',
      QUIRE_AGENT_MAX_TOKENS: '100000000',
      TEMPORAL_TLS_KEY: '/etc/quire/tls/client.key',
    };
    const secrets = secretValuesOf(env);
    assert.deepEqual(secrets.sort(), ['a1b2c3d4e5f6a7b8', 'gsk_GROQ.secret+key(01234)', 'p%40ss-w0rd-long', 'p@ss-w0rd-long', 'q-0123456789abcdef'].sort());
    const { logger, lines } = capture(secrets);
    logger.warn({ err: new Error('the model endpoint answered 400: Incorrect API key provided: gsk_GROQ.secret+key(01234)'), qdrant: 'key q-0123456789abcdef refused' }, 'password p@ss-w0rd-long refused');
    const text = lines.join('');
    for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} in ${text}`);
    assert.match(text, /Incorrect API key provided: \[redacted\]/);
    assert.match(text, /gpt-4o-mini-2024|"level"/, 'other values stay');
  });

  it("masks the task token of Temporal's activity lines, at the top of a line and one level down", () => {
    const { logger, lines } = capture();
    logger.warn({ taskToken: 'CiQwMWEyMWQ3MS02ZGI5', activityType: 'runAgentTurn' }, 'Activity failed');
    logger.warn({ activity: { taskToken: 'CiQwMWEyMWQ3MS02ZGI5' } }, 'Activity failed');
    const text = lines.join('');
    assert.ok(!text.includes('CiQwMWEyMWQ3MS02ZGI5'), text);
    assert.equal((JSON.parse(lines[0]!) as { activityType: string }).activityType, 'runAgentTurn');
  });

  it("masks a credential in a URL's query, whatever it looks like, and leaves other parameters", () => {
    assert.equal(
      scrubSecrets('git fetch https://gitlab.example.com/acme/docs.git?private_token=plainSecret1&ref=main failed; see https://x.test/a?access_token=abc&page=2'),
      'git fetch https://gitlab.example.com/acme/docs.git?private_token=[redacted]&ref=main failed; see https://x.test/a?access_token=[redacted]&page=2',
    );
  });

  it('masks thread keys, view tokens, webhook secrets, GitLab tokens, database and Redis URL passwords and Basic credentials', () => {
    const { logger, lines } = capture();
    const secrets = [
      'tk_KShWXqqh0zVS_LEPaheHDZtVcsXSFOSRInAPHDCZEe4',
      'pv_2C4Piv1slUaQA7PyyQsE1esc3WMkPT500lj3SaWq7XQ',
      'whsec_8mKq0d3v1yWc5Jt2pQe7Lr9sXa4Bn6Hf',
      'glpat-abcdefghijklmnopqrst12',
      'S3cretPw',
      'r3disPw',
      'eC1hY2Nlc3MtdG9rZW46c2VjcmV0',
    ];
    logger.warn(
      { reason: `link /forge/p/pulls/1?token=${secrets[1]} key ${secrets[0]}`, db: 'postgres://quire:S3cretPw@db:5432/quire' },
      `hook ${secrets[2]} token ${secrets[3]} redis://:r3disPw@redis:6379 Authorization: Basic ${secrets[6]}`,
    );
    const text = lines.join('');
    for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} in ${text}`);
    const line = JSON.parse(lines[0]!) as { db: string; msg: string };
    assert.equal(line.db, 'postgres://[redacted]db:5432/quire');
    assert.match(line.msg, /redis:\/\/\[redacted\]redis:6379/);
  });
});
