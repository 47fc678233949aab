import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { validateChanges } from '../../../activities/agent/validate.js';
import { tempDir } from '../../support/services.js';

async function docs(files: Record<string, string>) {
  const root = await tempDir('quire-val-');
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  }
  return { root, docsRoot: root };
}

const ok = '---\ntitle: Ok\n---\n\n# Ok\n';

describe('agent validation', function () {
  it('accepts valid pages, links by extension, folder index and root-absolute path, and external links', async function () {
    const d = await docs({
      'index.mdx': ok,
      'guides/index.md': ok,
      'guides/setup.mdx': `${ok}\n[a](./../index) [b](/guides) [c](setup.mdx#part) [d](https://example.com/x) [e](#top) [f](mailto:a@b.c)\n\n<Card title="x">hi</Card>\n`,
    });
    assert.deepEqual(await validateChanges(d, ['guides/setup.mdx']), []);
  });

  it('reports a page nested too deep to read (components or expressions) as a problem of that page, quickly, instead of overflowing the stack or holding the thread', async function () {
    const d = await docs({
      'tags.mdx': `${ok}\n${'<div>'.repeat(10_000)}${'</div>'.repeat(10_000)}\n`,
      'braces.mdx': `${ok}\n${'{'.repeat(16_000)}${'}'.repeat(16_000)}\n`,
      'fine.mdx': `${ok}\n${'<div>'.repeat(20)}text${'</div>'.repeat(20)}\n\n\`\`\`json\n${'{'.repeat(150)}${'}'.repeat(150)}\n\`\`\`\n`,
    });
    assert.deepEqual(await validateChanges(d, ['tags.mdx', 'braces.mdx', 'fine.mdx']), [
      'tags.mdx:7: MDX syntax error: components are nested more than 100 deep (<div>); flatten the page',
      'braces.mdx:7: MDX syntax error: expressions { … } are nested more than 100 deep',
    ]);
  });

  it('never follows a navigation file that is a link out of the repository, nor a navigation entry climbing out of the docs', async function () {
    const outside = await tempDir('quire-outside-');
    await fs.writeFile(path.join(outside, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    await fs.writeFile(path.join(outside, 'page.md'), ok);
    const linked = await docs({ 'a.md': ok });
    await fs.symlink(path.join(outside, 'passwd'), path.join(linked.root, 'docs.json'));
    const problems = await validateChanges(linked, ['a.md']);
    assert.deepEqual(problems, ['docs.json: not a regular file (a link, a folder or a device); the navigation must be a file of the repository itself']);

    const climbing = await docs({ 'a.md': ok, 'docs.json': JSON.stringify({ navigation: { pages: ['a', `../${path.basename(outside)}/page`] } }) });
    assert.deepEqual(await validateChanges(climbing, ['a.md']), [`docs.json: navigation entry "../${path.basename(outside)}/page" points at a page that does not exist`]);
  });

  it('reports a changed page that is not UTF-8 text instead of passing it unchecked; a page that is gone is skipped', async function () {
    const d = await docs({ 'index.mdx': ok });
    await fs.writeFile(path.join(d.root, 'binary.mdx'), Buffer.from('# T\n\0\n[dead](/nowhere)\n'));
    assert.deepEqual(await validateChanges(d, ['binary.mdx', 'deleted.mdx']), [
      'binary.mdx is not UTF-8 text (a binary file, or text in another encoding); these tools read and edit UTF-8 text only',
    ]);
  });

  it('reports broken frontmatter YAML with the line', async function () {
    const d = await docs({ 'a.md': '---\ntitle: ok\nbad: [unclosed\n---\n\n# A\n' });
    const [error] = await validateChanges(d, ['a.md']);
    assert.match(error ?? '', /^a\.md:\d+: frontmatter is not valid YAML/);
  });

  it('reports frontmatter that is not a mapping', async function () {
    const d = await docs({ 'a.md': '---\n- just\n- a list\n---\n\n# A\n' });
    assert.deepEqual(await validateChanges(d, ['a.md']), ['a.md:1: frontmatter must be a YAML mapping of keys to values']);
  });

  it('reports broken MDX with the line, but the same text in .md is fine', async function () {
    const text = '# Title\n\nSome text\n\n<Card title="x">\n\nnever closed\n';
    const d = await docs({ 'a.mdx': text, 'b.md': text });
    const errors = await validateChanges(d, ['a.mdx', 'b.md']);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /^a\.mdx:\d+: MDX syntax error/);
  });

  it('reports dead relative and root-absolute links with their line', async function () {
    const d = await docs({ 'guides/a.md': '# A\n\n[x](./missing)\n\n[y](/nowhere/page)\n\n[z](../../escape)\n' });
    assert.deepEqual(await validateChanges(d, ['guides/a.md']), [
      'guides/a.md:3: link ./missing points at a page that does not exist',
      'guides/a.md:5: link /nowhere/page points at a page that does not exist',
      'guides/a.md:7: link ../../escape points outside the docs',
    ]);
  });

  it('reports navigation entries of docs.json (nested tabs and groups, roots, page objects) that point at no page', async function () {
    const d = await docs({
      'intro.mdx': ok,
      'docs.json': JSON.stringify({
        navigation: {
          tabs: [
            {
              tab: 'A',
              groups: [
                { group: 'G', root: 'gone/root', pages: ['intro', { page: 'gone/object' }, 'GET /users', { group: 'Sub', pages: ['gone/page'] }] },
              ],
            },
          ],
        },
      }),
      // docs.json is the site's navigation: Mintlify (and the indexer) ignore a leftover mint.json.
      'mint.json': JSON.stringify({ navigation: [{ group: 'G', pages: ['also-gone'] }] }),
    });
    assert.deepEqual(await validateChanges(d, ['intro.mdx']), [
      'docs.json: navigation entry "gone/root" points at a page that does not exist',
      'docs.json: navigation entry "gone/object" points at a page that does not exist',
      'docs.json: navigation entry "gone/page" points at a page that does not exist',
    ]);
  });

  it('reports mint.json entries when it is the only navigation file', async function () {
    const d = await docs({ 'intro.mdx': ok, 'mint.json': JSON.stringify({ navigation: [{ group: 'G', pages: ['/intro', 'also-gone'] }] }) });
    assert.deepEqual(await validateChanges(d, ['intro.mdx']), ['mint.json: navigation entry "also-gone" points at a page that does not exist']);
  });

  it('checks component hrefs, and holds MDX to the compiler grammar beyond what the indexer reads', async function () {
    const d = await docs({
      'a.mdx': `${ok}\n<Card title="Next" href="/missing-card">\n  Go on.\n</Card>\n`,
      'b.mdx': `${ok}\n<Note title={broken(}>\n  x\n</Note>\n`,
    });
    assert.deepEqual(await validateChanges(d, ['a.mdx']), ['a.mdx:7: link /missing-card points at a page that does not exist']);
    const [grammar] = await validateChanges(d, ['b.mdx']);
    assert.match(grammar ?? '', /^b\.mdx:\d+: MDX syntax error/);
  });

  it('reports a docs.json that is not JSON, and checks nothing when nothing changed', async function () {
    const d = await docs({ 'docs.json': '{ nope' });
    assert.match((await validateChanges(d, ['docs.json']))[0] ?? '', /^docs\.json: not valid JSON/);
    assert.deepEqual(await validateChanges(d, []), []);
  });
});
