import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { listPageFiles, PageSyntaxError, parseNavigation, parsePage, readNavigation } from '../../../core/docs/index.js';
import { pagePathOf, readPage } from '../../../core/retrieval/read-page.js';
import { tempDir } from '../../support/services.js';

describe('page reader', () => {
  it('maps files to URL paths: no extension, index to its folder', () => {
    assert.equal(pagePathOf('index.mdx'), '/');
    assert.equal(pagePathOf('guides/index.md'), '/guides');
    assert.equal(pagePathOf('guides/quickstart.mdx'), '/guides/quickstart');
  });

  it('reads title, description, markers and groups from frontmatter', () => {
    const page = readPage(
      {
        file: 'sso.mdx',
        text: '---\ntitle: Single sign-on\ndescription: Log in with Okta\nversion: v2\nlanguage: en\ntag: enterprise\ngroups: [admins, enterprise]\n---\n\n## Okta\n\nSteps.\n',
      },
      { navigation: undefined, scope: 'site' as const },
    );
    assert.ok(page);
    assert.equal(page.title, 'Single sign-on');
    assert.equal(page.description, 'Log in with Okta');
    assert.deepEqual([page.version, page.language, page.tag, page.groups], ['v2', 'en', 'enterprise', ['admins', 'enterprise']]);
    assert.equal(page.content, '## Okta\n\nSteps.\n');
    assert.ok(page.chunks.every((c) => c.version === 'v2' && c.tag === 'enterprise' && c.groups.length === 2));
  });

  it('falls back to the first h1 for the title and leaves hidden pages out unless asked', () => {
    const nav = { navigation: undefined, scope: 'site' as const };
    assert.equal(readPage({ file: 'a.md', text: '# From heading\n\nBody.\n' }, nav)?.title, 'From heading');
    const hidden = { file: 'secret.md', text: '---\nhidden: true\n---\nBody.\n' };
    assert.equal(readPage(hidden, nav), undefined);
    assert.equal(readPage(hidden, { ...nav, scope: 'everything' })?.path, '/secret');
  });

  it('leaves out a page whose frontmatter cannot be read when the navigation leaves it out, and reports it broken when listed', () => {
    const navigation = parseNavigation('docs.json', JSON.stringify({ navigation: { groups: [{ group: 'Guides', pages: ['listed'] }] } }));
    const opts = { navigation, scope: 'site' as const };
    const badFrontmatter = '---\ntitle: Foo: bar\n---\nBody.\n';
    // Dropped from the navigation and broken in one commit: out of search, not kept as its last good version.
    assert.equal(readPage({ file: 'unlisted.mdx', text: badFrontmatter }, opts), undefined);
    assert.throws(() => readPage({ file: 'listed.mdx', text: badFrontmatter }, opts), PageSyntaxError);
  });

  it("serves a page whole without its authors' comments, code left as written", () => {
    const opts = { navigation: undefined, scope: 'site' as const };
    const md = readPage({ file: 'pricing.md', text: '# Pricing\n\nPlans start at $10.<!-- internal: discount is 40% -->\n\n<!--\nTODO legal review\n-->\n```html\n<!-- kept: an example -->\n```\n' }, opts);
    assert.ok(md);
    assert.doesNotMatch(md.content, /internal|TODO legal/);
    assert.match(md.content, /Plans start at \$10\.\n/);
    assert.match(md.content, /<!-- kept: an example -->/);
    const mdx = readPage({ file: 'plans.mdx', text: '# Plans\n\n{/* draft: pricing changes in May */}\nPlans start at $10. `{/* inline code */}`\n' }, opts);
    assert.ok(mdx);
    assert.doesNotMatch(mdx.content, /draft: pricing/);
    assert.match(mdx.content, /`\{\/\* inline code \*\/\}`/);
  });

  it('drops a noindex page on its frontmatter alone, before its body is parsed', () => {
    const opts = { navigation: undefined, scope: 'site' as const };
    // The body is broken MDX: reading it would throw, so returning undefined shows it was never parsed.
    assert.equal(readPage({ file: 'changelog.mdx', text: '---\nnoindex: true\n---\n\n<Update>\n' }, opts), undefined);
    assert.throws(() => readPage({ file: 'changelog.mdx', text: '---\nnoindex: true\n---\n\n<Update>\n' }, { ...opts, scope: 'everything' }), PageSyntaxError);
  });

  it('reports a broken MDX page or frontmatter with the reason', () => {
    const opts = { navigation: undefined, scope: 'site' as const };
    assert.throws(() => readPage({ file: 'bad.mdx', text: '# Hi\n\n<Note>unclosed\n' }, opts), (err: unknown) => err instanceof PageSyntaxError && err.line === 3);
    assert.throws(() => readPage({ file: 'bad.md', text: '---\ntitle: [unclosed\n---\nx\n' }, opts), /frontmatter is not valid YAML/);
  });

  it('reads docs.json navigation: versions, languages, groups, hidden groups, pages absent from it', async () => {
    const dir = await tempDir();
    await fs.writeFile(
      path.join(dir, 'docs.json'),
      JSON.stringify({
        navigation: {
          versions: [
            {
              version: 'v2',
              languages: [{ language: 'en', tabs: [{ tab: 'Docs', groups: [{ group: 'Start', pages: ['index', { group: 'Deep', pages: ['guides/a'] }] }] }] }],
            },
            { version: 'v1', groups: [{ group: 'Old', hidden: true, pages: ['v1/a'] }] },
          ],
        },
      }),
    );
    const nav = await readNavigation(dir);
    assert.equal(nav?.file, 'docs.json');
    assert.deepEqual(nav?.pages.get('/guides/a'), { sections: ['Docs', 'Start', 'Deep'], version: 'v2', language: 'en', hidden: false, locked: false });
    assert.equal(nav?.pages.get('/v1/a')?.hidden, true);
    const listed = readPage({ file: 'guides/a.mdx', text: '# A\n\nText.\n' }, { navigation: nav, scope: 'site' as const });
    assert.deepEqual([listed?.version, listed?.language], ['v2', 'en']);
    assert.equal(readPage({ file: 'v1/a.mdx', text: 'x' }, { navigation: nav, scope: 'site' as const }), undefined);
    assert.equal(readPage({ file: 'orphan.mdx', text: 'x' }, { navigation: nav, scope: 'site' as const }), undefined);
  });

  it('reads mint.json navigation and lists page files, skipping repository files', async () => {
    const dir = await tempDir();
    await fs.mkdir(path.join(dir, 'api'), { recursive: true });
    await fs.mkdir(path.join(dir, 'node_modules', 'x'), { recursive: true });
    await fs.writeFile(path.join(dir, 'mint.json'), JSON.stringify({ navigation: [{ group: 'API', version: 'v3', pages: ['api/users'] }] }));
    for (const f of ['api/users.mdx', 'README.md', 'node_modules/x/a.md', 'notes.txt', 'index.md']) await fs.writeFile(path.join(dir, f), '# x\n');
    assert.deepEqual(await listPageFiles(dir), ['api/users.mdx', 'index.md']);
    const nav = await readNavigation(dir);
    assert.deepEqual(nav?.pages.get('/api/users'), { sections: ['API'], version: 'v3', hidden: false, locked: false });
  });

  it('reads GFM tables and task lists as whole blocks in Markdown and MDX alike', () => {
    for (const file of ['a.md', 'a.mdx']) {
      const { blocks } = parsePage(file, '| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n');
      assert.deepEqual(blocks.map((b) => b.text), ['| a | b |\n|---|---|\n| 1 | 2 |', '- [x] done']);
    }
  });
});
