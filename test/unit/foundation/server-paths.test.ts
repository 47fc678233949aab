import assert from 'node:assert/strict';
import { publicSource } from '../../../core/git/index.js';
import { withoutServerPaths } from '../../../core/server-paths.js';

describe('server paths in what an answer quotes', () => {
  it('masks absolute paths and file URLs, as git and Node write them', () => {
    assert.equal(
      withoutServerPaths("git fetch failed: fatal: '/var/lib/quire/sources/d/1f2e' does not appear to be a git repository"),
      "git fetch failed: fatal: '[server path]' does not appear to be a git repository",
    );
    assert.equal(withoutServerPaths("ENOENT: no such file or directory, realpath '/srv/docs'"), "ENOENT: no such file or directory, realpath '[server path]'");
    assert.equal(withoutServerPaths('cannot read file:///srv/repos/docs.git now'), 'cannot read [server path] now');
    assert.equal(withoutServerPaths('checked out at /tmp/quire-x/docs (path=/etc/y)'), 'checked out at [server path] (path=[server path])');
  });

  it('leaves web URLs, scp-style remotes, relative folders and slashes between words alone', () => {
    for (const text of [
      "fatal: repository 'https://github.com/acme/docs.git/' not found",
      'git@github.com:acme/docs.git',
      "the docs folder 'guides/api' is missing",
      'and/or 1/2, a / b',
    ])
      assert.equal(withoutServerPaths(text), text);
  });

  it('names a source as its users know it, a folder on the server not at all', () => {
    assert.equal(publicSource('https://x-access-token:ghp_secret@github.com/acme/docs.git'), 'https://github.com/acme/docs.git');
    assert.equal(publicSource('git@github.com:acme/docs.git'), 'git@github.com:acme/docs.git');
    assert.equal(publicSource('/srv/repos/docs.git'), undefined);
    assert.equal(publicSource('file:///srv/repos/docs.git'), undefined);
    assert.equal(publicSource('../repos/docs'), undefined);
  });
});
