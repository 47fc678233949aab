import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { listPageFiles } from '../../../core/docs/index.js';
import { checkoutDocs } from '../../../core/retrieval/docs-source.js';
import { tempDir } from '../../support/services.js';
import { exampleDocsRepo } from './git-docs.js';

describe('docs source checkout (real git)', () => {
  it('fetches a branch shallow, follows new commits, and never stores the source URL as a remote', async () => {
    const repo = await exampleDocsRepo();
    const cache = await tempDir();
    const root = await checkoutDocs(repo.bareDir, 'main', '', cache);
    assert.ok((await listPageFiles(root)).includes('quickstart.mdx'));
    const config = await fs.readFile(path.join(root, '.git', 'config'), 'utf8');
    assert.doesNotMatch(config, /\[remote/);
    assert.ok(!config.includes(repo.bareDir));

    await repo.commit({ 'concepts/new-page.md': '# New\n\nFresh.\n', 'quickstart.mdx': null }, 'change');
    const again = await checkoutDocs(repo.bareDir, 'main', 'concepts', cache);
    assert.equal(again, path.join(root, 'concepts'));
    assert.ok((await listPageFiles(again)).includes('new-page.md'));
    assert.ok(!(await listPageFiles(root)).includes('quickstart.mdx'));
  });

  it('reads a plain folder in place', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'a.md'), '# A\n');
    assert.equal(await checkoutDocs(dir, undefined, '', await tempDir()), dir);
  });
});
