import assert from 'node:assert/strict';
import { answerRenderer, linkTarget } from '../../../core/markdown/answer.js';
import { AnswerSources, siteOf } from '../../../core/markdown/answer-sources.js';
import { ENGLISH } from '../../../widget/words.js';

const BASE = 'https://docs.example.com';
const render = answerRenderer(ENGLISH, 'quire-new-tab');
const ON_SITE = { docsUrl: undefined, site: BASE };

/** The `[n]` markers of the HTML, with where each links to. */
const markers = (html: string) => [...html.matchAll(/<a href="([^"]+)"[^>]*class="cite"[^>]*>\[(\d+)\]<\/a>/g)].map((m) => [m[2], m[1]]);

describe('widget citations', () => {
  it('numbers linked pages in order of first citation, each page once, whatever the section', () => {
    const sources = new AnswerSources();
    sources.addSource({ id: 'src_1', url: `${BASE}/webhooks#verify`, title: 'Webhooks' });
    sources.addSource({ id: 'src_2', url: `${BASE}/install`, title: 'Install' });
    const text = `Install first ([Install](${BASE}/install)), then verify [[2]](${BASE}/webhooks#retries) and [[1]](${BASE}/install).`;
    const { html, cited } = render(text, sources, ON_SITE);
    assert.deepEqual(cited, [`${BASE}/install`, `${BASE}/webhooks`]);
    assert.deepEqual(markers(html), [
      ['1', `${BASE}/install`],
      ['2', `${BASE}/webhooks#retries`],
      ['1', `${BASE}/install`],
    ]);
    assert.match(html, /<a href="https:\/\/docs\.example\.com\/install"[^>]*>Install<\/a>/, 'a worded link keeps its words');
    assert.deepEqual(sources.listed(cited).map((s) => s.title), ['Install', 'Webhooks']);
  });

  it('puts a table in a box of its own that scrolls sideways and takes focus, as a code block does', () => {
    const { html } = render('| Scope | Limit |\n|---|---|\n| Per organization | 3,000 |', new AnswerSources(), ON_SITE);
    assert.match(html, /^<div class="table" tabindex="0"><table[^>]*>[\s\S]*<td[^>]*>3,000<\/td>[\s\S]*<\/table>\n?<\/div>/);
  });

  it("links bare [N] markers of today's server to the source they name, and lists every page once", () => {
    const sources = new AnswerSources();
    for (const [i, anchor] of ['a', 'b', 'c'].entries()) sources.addSource({ id: `src_${i + 1}`, url: `${BASE}/webhooks#${anchor}`, title: `Webhooks ${anchor}` });
    sources.addSource({ id: 'src_4', url: `${BASE}/install`, title: 'Install' });
    const { html, cited } = render('Use `arr[1]` as code; sign it [4] and check [3][1]. Unknown [9].', sources, ON_SITE);
    assert.deepEqual(markers(html), [
      ['1', `${BASE}/install`],
      ['2', `${BASE}/webhooks#a`],
      ['2', `${BASE}/webhooks#a`],
    ]);
    assert.match(html, /<code>arr\[1\]<\/code>/, 'code stays code');
    assert.match(html, /Unknown \[9\]/);
    assert.deepEqual(sources.listed(cited).map((s) => s.url), [`${BASE}/install`, `${BASE}/webhooks#a`]);
  });

  it("resolves site-relative links against the domain's site, and runs no HTML", () => {
    const sources = new AnswerSources();
    const { html } = render('See [the guide](/guides/install) <img src=x onerror=alert(1)> [x](javascript:alert(1))\n\n```suggestions\n(Install)[/guides/install]\n```', sources, ON_SITE);
    assert.match(html, /<a href="https:\/\/docs\.example\.com\/guides\/install"[^>]*>the guide<\/a>/);
    assert.match(html, /&lt;img src=x/);
    assert.doesNotMatch(html, /href="javascript/);
    assert.match(html, /<nav class="suggestions"[^>]*><ul><li><a href="https:\/\/docs\.example\.com\/guides\/install"/);
  });

  it('links no suggestion, citation or source a browser would read as javascript:, and lets mailto through', () => {
    const sources = new AnswerSources();
    sources.addSource({ id: 'src_1', url: '\x01javascript:alert(1)', title: 'Trap' });
    const text = 'It says so [1].\n\n```suggestions\n(Trap)[java\tscript:alert(1)]\n(Other trap)[\x01javascript:alert(2)]\n(Install)[/guides/install]\n(Write to us)[mailto:help@example.com]\n```';
    const { html } = render(text, sources, ON_SITE);
    assert.deepEqual([...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]), [`${BASE}/guides/install`, 'mailto:help@example.com']);
    assert.equal(linkTarget('java\nscript:alert(1)', ON_SITE), undefined, 'a source listed under the answer');
  });

  it('shows images as links to them, so the answer loads nothing on the docs page', () => {
    const text = 'Status ![pixel](https://tracker.example/p.gif?d=secret), then ![](/img/setup.png) and [![Flow](/img/flow.png)](/guides/install).';
    const { html } = render(text, new AnswerSources(), ON_SITE);
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /<a href="https:\/\/tracker\.example\/p\.gif\?d=secret"[^>]*>pixel<\/a>/);
    assert.match(html, /<a href="https:\/\/docs\.example\.com\/img\/setup\.png"[^>]*>image<\/a>/);
    assert.match(html, /<a href="https:\/\/docs\.example\.com\/guides\/install"[^>]*>Flow<\/a>/, 'an image inside a link leaves its text');
  });

  it('sends every link on the domain (relative, suggested, cited) to data-docs-url, and leaves other sites alone', () => {
    const sources = new AnswerSources();
    sources.addSource({ id: 'src_1', url: `${BASE}/guides/install#cli`, title: 'Install' });
    const base = { docsUrl: 'https://mirror.example.org/docs/', site: BASE };
    const text = `See [the guide](/guides/install) [1], [Node](https://nodejs.org/) and [[1]](${BASE}/guides/install#cli).\n\n\`\`\`suggestions\n(Install)[/guides/install]\n\`\`\``;
    const { html, cited } = render(text, sources, base);
    assert.deepEqual(cited, [`${BASE}/guides/install`]);
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(hrefs, [
      'https://mirror.example.org/docs/guides/install',
      'https://mirror.example.org/docs/guides/install#cli',
      'https://mirror.example.org/docs/guides/install#cli',
      'https://nodejs.org/',
      'https://mirror.example.org/docs/guides/install#cli',
      'https://mirror.example.org/docs/guides/install',
    ]);
  });

  it("learns the docs site from a search hit's url and path", () => {
    assert.equal(siteOf('https://acme.com/docs/guides/x#a', '/guides/x'), 'https://acme.com/docs');
    assert.equal(siteOf('https://acme.com/guides/x', 'guides/x'), 'https://acme.com');
    assert.equal(siteOf('https://acme.com/other', '/guides/x'), undefined);
  });
});
