import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { hashSecret, kindOfSecret, newSecret, sameHash } from '../../../core/tenants/keys.js';
import { scrubSecrets } from '../../../core/logger.js';

describe('API keys', () => {
  it('carry their kind in the prefix, longer prefix first', () => {
    const admin = newSecret('admin');
    const assistant = newSecret('assistant');
    assert.match(admin, /^quire_[A-Za-z0-9_-]{43}$/);
    assert.match(assistant, /^quire_dsc_[A-Za-z0-9_-]{43}$/);
    assert.equal(kindOfSecret(admin), 'admin');
    assert.equal(kindOfSecret(assistant), 'assistant');
    assert.equal(kindOfSecret('sk-nothing'), undefined);
  });

  it('hold 32 random bytes and are compared by hash', () => {
    const a = newSecret('admin');
    assert.equal(Buffer.from(a.slice('quire_'.length), 'base64url').length, 32);
    assert.notEqual(a, newSecret('admin'));
    assert.ok(sameHash(hashSecret(a), hashSecret(a)));
    assert.ok(!sameHash(hashSecret(a), hashSecret(a + 'x')));
  });

  it('are stored as the hex SHA-256 of the secret, so keys hashed by earlier builds still match', () => {
    // The FIPS 180-2 test vector for "abc".
    assert.equal(hashSecret('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const secret = newSecret('assistant');
    assert.equal(hashSecret(secret), createHash('sha256').update(secret).digest('hex'));
  });

  it('are masked in log text', () => {
    const key = newSecret('assistant');
    const line = scrubSecrets(`auth with ${key} and https://user:ghp_abcdefghijklmnopqrstuvwxyz@github.com/x`);
    assert.ok(!line.includes(key));
    assert.ok(!line.includes('ghp_abcdefghijklmnopqrstuvwxyz'));
    assert.match(line, /\[redacted\]/);
  });
});
