import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { readFrontmatter, readNavigation, searchability, type IndexScope, type SiteNavigation } from '../../../core/docs/index.js';
import { EmbeddedDocIndex } from '../../../core/retrieval/embedded-store.js';
import { indexDocs } from '../../../core/retrieval/index-docs.js';
import { tempDir } from '../../support/services.js';

/** A Mintlify site with one page per search rule (see its docs.json). */
const SITE = path.resolve(__dirname, '../../fixtures/mintlify-site');
/** The older mint.json format. */
const LEGACY = path.resolve(__dirname, '../../fixtures/mintlify-legacy-site');

async function site(root = SITE): Promise<SiteNavigation> {
  const nav = await readNavigation(root);
  assert.ok(nav);
  return nav;
}

async function verdict(pagePath: string, nav: SiteNavigation, scope: IndexScope = 'site', root = SITE) {
  const file = ['.mdx', '/index.mdx'].map((ext) => path.join(root, pagePath.slice(1) + ext));
  const text = await fs.readFile(file[0]!, 'utf8').catch(() => fs.readFile(file[1]!, 'utf8'));
  return searchability(readFrontmatter(text).frontmatter, nav, nav.pages.get(pagePath), scope);
}

const searchable = async (pagePath: string, nav: SiteNavigation, scope?: IndexScope) => (await verdict(pagePath, nav, scope)).searchable;

/** A copy of the fixture with docs.json changed, for the site-wide settings. */
async function variant(change: (config: Record<string, unknown>) => void): Promise<string> {
  const dir = await tempDir();
  await fs.cp(SITE, dir, { recursive: true });
  const config: Record<string, unknown> = JSON.parse(await fs.readFile(path.join(dir, 'docs.json'), 'utf8'));
  change(config);
  await fs.writeFile(path.join(dir, 'docs.json'), JSON.stringify(config));
  return dir;
}

describe('which pages are searchable (Mintlify rules)', () => {
  it('indexes pages listed in the navigation, and gives them their sections, version and language', async () => {
    const nav = await site();
    assert.equal(await searchable('/', nav), true);
    assert.deepEqual(nav.pages.get('/guides/deploy/docker'), {
      sections: ['Platform', 'Guides', 'Start', 'Deploy'],
      version: 'v2',
      language: 'en',
      hidden: false,
      locked: false,
    });
  });

  it('leaves out pages that are in no navigation', async () => {
    assert.deepEqual(await verdict('/drafts/unlisted', await site()), { searchable: false, reason: 'not in docs.json navigation' });
  });

  it('reads group root pages, also of nested groups', async () => {
    const nav = await site();
    assert.equal(await searchable('/guides/overview', nav), true);
    assert.equal(await searchable('/guides/deploy', nav), true);
    assert.deepEqual(nav.pages.get('/guides/deploy')?.sections, ['Platform', 'Guides', 'Start', 'Deploy']);
  });

  it('reads page objects with their title, and every container: products, menus, anchors, dropdowns, global anchors', async () => {
    const nav = await site();
    assert.deepEqual(nav.pages.get('/fr/demarrer'), {
      title: 'Démarrer vite',
      sections: ['Guides FR', 'Démarrer'],
      version: 'v2',
      language: 'fr',
      hidden: false,
      locked: false,
    });
    assert.deepEqual(nav.pages.get('/api/users')?.sections, ['Platform', 'API', 'Endpoints', 'Users']);
    assert.equal(await searchable('/changelog', nav), true, 'a global anchor links the changelog');
    assert.ok(!nav.refs.includes('GET /users'), 'an OpenAPI operation is not a page file');
    assert.ok(!nav.refs.some((ref) => ref.startsWith('https:')), 'external links are not pages');
  });

  it('leaves out pages under a hidden group or tab', async () => {
    const nav = await site();
    assert.deepEqual(await verdict('/guides/hidden-in-group', nav), { searchable: false, reason: 'under a hidden tab or group' });
    assert.equal(await searchable('/internal/runbook', nav), false);
  });

  it('keeps pages under a hidden group or tab that says searchable: true, nested hidden groups included', async () => {
    const nav = await site();
    assert.equal(await searchable('/guides/searchable-hidden-group', nav), true);
    assert.equal(await searchable('/support/faq', nav), true);
    assert.equal(await searchable('/support/nested-hidden', nav), true);
  });

  it('leaves out pages under a hidden product or version; searchable on a tab inside cannot bring them back', async () => {
    const nav = await site();
    assert.deepEqual(await verdict('/legacy/old', nav), { searchable: false, reason: 'under a hidden navigation section' });
    assert.equal(await searchable('/v1/quickstart', nav), false);
  });

  it('leaves out pages with hidden: true, noindex: true or searchable: false in their frontmatter, and groups with searchable: false', async () => {
    const nav = await site();
    assert.deepEqual(await verdict('/guides/hidden-frontmatter', nav), { searchable: false, reason: 'hidden: true' });
    assert.deepEqual(await verdict('/guides/install', nav), { searchable: false, reason: 'noindex' });
    assert.deepEqual(await verdict('/guides/searchable-false', nav), { searchable: false, reason: 'searchable: false' });
    assert.deepEqual(await verdict('/guides/opted-out', nav), { searchable: false, reason: 'searchable: false on its tab or group' });
  });

  it('seo.indexing: "all" takes hidden and unlisted pages, but never a page that opts out', async () => {
    const dir = await variant((config) => (config.seo = { indexing: 'all' }));
    const nav = await site(dir);
    assert.equal(nav.indexing, 'all');
    for (const page of ['/drafts/unlisted', '/guides/hidden-in-group', '/internal/runbook', '/legacy/old', '/v1/quickstart', '/guides/hidden-frontmatter']) {
      assert.equal(await searchable(page, nav), true, page);
    }
    for (const page of ['/guides/install', '/guides/searchable-false', '/guides/opted-out']) assert.equal(await searchable(page, nav), false, page);
  });

  it('the domain option takes every page file, opt-outs included', async () => {
    const nav = await site();
    for (const page of ['/guides/install', '/guides/searchable-false', '/drafts/unlisted', '/v1/quickstart']) {
      assert.equal(await searchable(page, nav, 'everything'), true, page);
    }
  });

  it('reads mint.json: groups, nested groups with a version, tab folders, and seo.indexHiddenPages', async () => {
    const nav = await site(LEGACY);
    assert.equal(nav.file, 'mint.json');
    assert.deepEqual(nav.pages.get('/guides/old'), { sections: ['Guides', 'Old'], version: 'v1', hidden: false, locked: false });
    assert.deepEqual(nav.pages.get('/api/users')?.sections, ['API reference', 'Endpoints']);
    assert.equal((await verdict('/unlisted', nav, 'site', LEGACY)).searchable, false);
    const dir = await tempDir();
    await fs.cp(LEGACY, dir, { recursive: true });
    const config: Record<string, unknown> = JSON.parse(await fs.readFile(path.join(dir, 'mint.json'), 'utf8'));
    await fs.writeFile(path.join(dir, 'mint.json'), JSON.stringify({ ...config, seo: { indexHiddenPages: true } }));
    assert.equal((await site(dir)).indexing, 'all');
  });

  it('indexes exactly the searchable pages of the fixture site, and re-evaluates them when docs.json changes', async () => {
    const dir = await variant(() => undefined);
    const index = new EmbeddedDocIndex(await tempDir());
    const first = await indexDocs(index, 'fixture', dir, { includeHidden: false });
    const indexed = [...(await index.pageHashes('fixture')).keys()].sort();
    assert.deepEqual(indexed, [
      '/',
      '/api/users',
      '/changelog',
      '/fr/demarrer',
      '/guides/deploy',
      '/guides/deploy/docker',
      '/guides/overview',
      '/guides/searchable-hidden-group',
      '/support/faq',
      '/support/nested-hidden',
    ]);
    assert.equal(first.pages, 10);
    const fr = await index.search('fixture', { query: 'page listée objet', pageSize: 1 });
    assert.equal(fr[0]?.metadata.title, 'Démarrer');
    assert.equal(fr[0]?.metadata.language, 'fr');

    const config: Record<string, unknown> = JSON.parse(await fs.readFile(path.join(dir, 'docs.json'), 'utf8'));
    await fs.writeFile(path.join(dir, 'docs.json'), JSON.stringify({ ...config, seo: { indexing: 'all' } }));
    const second = await indexDocs(index, 'fixture', dir, { includeHidden: false });
    assert.equal(second.pages, 16, JSON.stringify(second));
    const everything = await indexDocs(new EmbeddedDocIndex(await tempDir()), 'fixture', dir, { includeHidden: true });
    assert.equal(everything.pages, 19);
  });
});

describe('a page the navigation lists in several versions or languages', () => {
  it('is found by a reader of each of them, and keeps the one it has when listed under one', async () => {
    const dir = await tempDir();
    const group = (pages: string[]) => [{ group: 'Start', pages }];
    await fs.writeFile(
      path.join(dir, 'docs.json'),
      JSON.stringify({
        navigation: {
          languages: [
            { language: 'en', versions: [{ version: 'v1', groups: group(['intro', 'v1/api']) }, { version: 'v2', groups: group(['intro', 'v2/api']) }] },
            { language: 'fr', versions: [{ version: 'v2', groups: group(['intro']) }] },
          ],
        },
      }),
    );
    await fs.mkdir(path.join(dir, 'v1'));
    await fs.mkdir(path.join(dir, 'v2'));
    await fs.writeFile(path.join(dir, 'intro.mdx'), '# Introduction\n\nInstall the relay agent.\n');
    await fs.writeFile(path.join(dir, 'v1/api.mdx'), '# API v1\n\nThe relay agent speaks XML.\n');
    await fs.writeFile(path.join(dir, 'v2/api.mdx'), '# API v2\n\nThe relay agent speaks JSON.\n');
    const index = new EmbeddedDocIndex(await tempDir());
    await indexDocs(index, 'versions', dir, { includeHidden: false });
    const found = async (filter: { version?: string; language?: string }) =>
      (await index.search('versions', { query: 'relay agent', pageSize: 5, filter })).map((h) => h.path).sort();
    assert.deepEqual(await found({ version: 'v1' }), ['/intro', '/v1/api']);
    assert.deepEqual(await found({ version: 'v2' }), ['/intro', '/v2/api']);
    assert.deepEqual(await found({ version: 'v2', language: 'fr' }), ['/intro']);
    const nav = await site(dir);
    assert.deepEqual([nav.pages.get('/v1/api')?.version, nav.pages.get('/v1/api')?.language], ['v1', 'en']);
  });
});
