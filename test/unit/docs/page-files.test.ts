import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { listPageFiles } from '../../../core/docs/index.js';
import { tempDir } from '../../support/services.js';

describe("a docs folder's page files", () => {
  it('lists one file per page path, always the same one: x.mdx, then x.md, then x/index.mdx, then x/index.md', async () => {
    const root = await tempDir('quire-pages-');
    const files = ['guide.mdx', 'guide/index.mdx', 'a.md', 'a.mdx', 'ref/index.md', 'ref/index.mdx', 'solo/index.md', 'snippets/x.mdx', 'README.md', 'index.mdx'];
    for (const file of files) {
      await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await fs.writeFile(path.join(root, file), `# ${file}\n`);
    }
    assert.deepEqual(await listPageFiles(root), ['a.mdx', 'guide.mdx', 'index.mdx', 'ref/index.mdx', 'solo/index.md']);
  });
});
