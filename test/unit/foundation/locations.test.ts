import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runGit } from '../../../core/git/index.js';
import { locationProblem, localPathOf } from '../../../core/tenants/locations.js';

describe("where an organisation's admin may point a repository or docs source", () => {
  let root = '';
  let allowed = '';
  before(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-locations-'));
    allowed = path.join(root, 'allowed');
    await fs.mkdir(path.join(allowed, 'docs'), { recursive: true });
    await fs.mkdir(path.join(root, 'private'));
    await fs.symlink(path.join(root, 'private'), path.join(allowed, 'escape'));
  });
  after(() => fs.rm(root, { recursive: true, force: true }));

  it('takes clone URLs and scp-style addresses as they are', async () => {
    for (const url of ['https://github.com/acme/docs.git', 'http://git.internal/docs.git', 'ssh://git@host/acme/docs.git', 'git://host/docs.git', 'git@github.com:acme/docs.git']) {
      assert.equal(localPathOf(url), undefined, url);
      assert.equal(await locationProblem(url, []), undefined, url);
    }
  });

  it('refuses a path on the server outside the listed folders, a file: URL included, saying what to give instead', async () => {
    for (const local of ['/etc', '/var/lib/quire/quire.sqlite', 'relative/docs', `file://${path.join(root, 'private')}`, path.join(allowed, '..', 'private')]) {
      assert.match((await locationProblem(local, [allowed])) ?? '', /is a path on the server this organisation may not name; give a clone URL .* or a folder under /, local);
    }
    assert.match((await locationProblem('/srv/docs', [])) ?? '', /QUIRE_ADMIN_LOCAL_PATHS/);
  });

  it('takes a path under a listed folder, unless a link leads out of it', async () => {
    assert.equal(await locationProblem(path.join(allowed, 'docs'), [allowed]), undefined);
    assert.equal(await locationProblem(allowed, [allowed]), undefined);
    assert.equal(await locationProblem(`file://${path.join(allowed, 'docs')}`, [allowed]), undefined);
    assert.match((await locationProblem(path.join(allowed, 'escape'), [allowed])) ?? '', /path on the server/);
    // A sibling whose name starts like the folder is not inside it.
    assert.match((await locationProblem(`${allowed}-other`, [allowed])) ?? '', /path on the server/);
  });

  it('refuses git remote helpers, and git itself runs none', async () => {
    assert.match((await locationProblem('ext::sh -c touch% /tmp/x', [allowed])) ?? '', /remote helper/);
    assert.match((await locationProblem('fd::17', [])) ?? '', /remote helper/);
    await assert.rejects(runGit(root, ['ls-remote', 'fd::17']), /transport 'fd' not allowed/);
  });
});
