import assert from 'node:assert/strict';
import { maskCredentials, restoreCredentials } from '../../../core/tenants/url-credentials.js';

describe('URL credentials in tenant views', () => {
  it('masks the userinfo of a URL, up to its last @ before the path, and leaves paths and git@host:path alone', () => {
    assert.equal(maskCredentials('https://x-access-token:ghp_abc@github.com/acme/docs.git'), 'https://***@github.com/acme/docs.git');
    assert.equal(maskCredentials('https://glpat-token@gitlab.example.com/acme/docs.git'), 'https://***@gitlab.example.com/acme/docs.git');
    assert.equal(maskCredentials('https://user:p@ss@git.example.com/docs.git'), 'https://***@git.example.com/docs.git');
    assert.equal(maskCredentials('https://github.com/acme/docs.git'), 'https://github.com/acme/docs.git');
    assert.equal(maskCredentials('https://github.com/acme/docs@v2'), 'https://github.com/acme/docs@v2', 'an @ in the path is no userinfo');
    assert.equal(maskCredentials('/srv/repos/docs.git'), '/srv/repos/docs.git');
    assert.equal(maskCredentials('git@github.com:acme/docs.git'), 'git@github.com:acme/docs.git');
  });

  it('gives a masked URL sent back the stored credentials, even with the rest of it changed', () => {
    const stored = 'https://user:p@ss@git.example.com/acme/docs.git';
    assert.equal(restoreCredentials(maskCredentials(stored), stored), stored);
    assert.equal(restoreCredentials('https://***@git.example.com/acme/handbook.git', stored), 'https://user:p@ss@git.example.com/acme/handbook.git');
    assert.equal(restoreCredentials('https://new:token@git.example.com/acme/docs.git', stored), 'https://new:token@git.example.com/acme/docs.git', 'new credentials replace them');
    assert.equal(restoreCredentials('https://git.example.com/acme/docs.git', stored), 'https://git.example.com/acme/docs.git', 'a URL without credentials drops them');
    assert.equal(restoreCredentials('https://***@git.example.com/acme/docs.git', 'https://git.example.com/acme/docs.git'), undefined, 'nothing stored to restore');
    assert.equal(restoreCredentials('/srv/docs.git', stored), '/srv/docs.git');
  });
});
