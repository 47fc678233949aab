import assert from 'node:assert/strict';
import { hostOf, isPrivateAddress, privateTargetProblem } from '../../../core/http/index.js';
import { loadConfig } from '../../../core/config.js';

describe('private targets: where an organisation may not point Quire', () => {
  it('knows loopback, private, link-local, reserved and IPv4-mapped addresses from public ones', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::5', '::ffff:127.0.0.1', '::ffff:7f00:1'])
      assert.equal(isPrivateAddress(a), true, a);
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:808:808']) assert.equal(isPrivateAddress(a), false, a);
  });

  it('refuses URLs and git addresses whose host is private however it is written, and names the setting', async () => {
    for (const url of ['http://127.0.0.1:6379/', 'http://2130706433/', 'http://0x7f.1/', 'http://[::ffff:127.0.0.1]/x', 'http://localhost:9464/metrics', 'https://a.localhost/', 'http://169.254.169.254/latest/meta-data', 'git@10.0.0.5:acme/docs.git'])
      assert.match((await privateTargetProblem(url)) ?? '', /private address .*QUIRE_ALLOW_PRIVATE_TARGETS=true/, url);
    for (const url of ['https://8.8.8.8/hook', 'https://name-that-does-not-resolve.invalid/hook', '/srv/docs'])
      assert.equal(await privateTargetProblem(url), undefined, url);
    assert.equal(hostOf('git@github.com:acme/docs.git'), 'github.com');
  });

  it('allows private targets on the embedded defaults and not with PostgreSQL, unless the operator says', () => {
    assert.equal(loadConfig({}).allowPrivateTargets, true);
    assert.equal(loadConfig({ QUIRE_DATABASE_URL: 'postgres://db.example:5432/quire' }).allowPrivateTargets, false);
    assert.equal(loadConfig({ QUIRE_DATABASE_URL: 'postgres://db.example:5432/quire', QUIRE_ALLOW_PRIVATE_TARGETS: 'true' }).allowPrivateTargets, true);
    assert.equal(loadConfig({ QUIRE_ALLOW_PRIVATE_TARGETS: 'false' }).allowPrivateTargets, false);
    assert.throws(() => loadConfig({ QUIRE_ALLOW_PRIVATE_TARGETS: 'maybe' }), /QUIRE_ALLOW_PRIVATE_TARGETS: must be true or false/);
  });
});
