import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '../../../core/logger.js';
import { LastKnownRecords } from '../../../core/tenants/last-known.js';

const down = () => Promise.reject(new Error('Connection is closed.'));

function capture() {
  const lines: Array<{ level: string; msg: string }> = [];
  const logger = createLogger('info', 'test', new Writable({ write: (c: Buffer, _e, done) => void (lines.push(JSON.parse(c.toString()) as { level: string; msg: string }), done()) }));
  return { logger, lines };
}

describe('tenant records last read', () => {
  it('answers the last value read while the store fails, and logs the outage and the recovery once each', async () => {
    const { logger, lines } = capture();
    const known = new LastKnownRecords(logger);
    assert.equal(await known.read('keys', 'k1', async () => '{"v":1}'), '{"v":1}');
    assert.equal(await known.read('keys', 'k1', down), '{"v":1}');
    assert.equal(await known.read('keys', 'k1', down), '{"v":1}');
    await assert.rejects(known.read('keys', 'k2', down), /Connection is closed/, 'a record never read is not invented');
    assert.equal(await known.read('keys', 'k1', async () => '{"v":2}'), '{"v":2}');
    assert.equal(await known.read('keys', 'k1', down), '{"v":2}', 'refreshed by the last successful read');
    assert.deepEqual(
      lines.map((l) => l.level),
      ['warn', 'info', 'warn'],
    );
  });

  it('forgets a record the store no longer has (a revoked key is not remembered as live)', async () => {
    const known = new LastKnownRecords(undefined);
    await known.read('key-by-hash', 'h', async () => 'key_1');
    assert.equal(await known.read('key-by-hash', 'h', async () => null), null);
    await assert.rejects(known.read('key-by-hash', 'h', down), /Connection is closed/);
  });

  it('keeps records of different kinds apart', async () => {
    const known = new LastKnownRecords(undefined);
    await known.read('orgs', 'acme', async () => 'org');
    await known.read('domains', 'acme', async () => 'domain');
    assert.equal(await known.read('orgs', 'acme', down), 'org');
    assert.equal(await known.read('domains', 'acme', down), 'domain');
  });
});
