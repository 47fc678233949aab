import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { listPageFiles, normalisePagePath, pagePathOf, parseNavigation } from '../../../core/docs/index.js';
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

  it('names a page the same whichever Unicode form its file name and its navigation entry are in', () => {
    // A file named on macOS is decomposed ('e' and a combining acute); docs.json is usually typed composed.
    const file = 'guides/cafe\u0301.mdx';
    const nav = parseNavigation('docs.json', JSON.stringify({ navigation: { groups: [{ group: 'Guides', pages: ['guides/caf\u00e9'] }] } }));
    assert.ok(nav.pages.has(pagePathOf(file)), [...nav.pages.keys()].join(', '));
    assert.equal(normalisePagePath('/guides/cafe\u0301'), normalisePagePath('/guides/caf\u00e9'));
  });
});
