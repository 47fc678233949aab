import assert from 'node:assert/strict';
import { pagePathFrom } from '../../../api/ai-tools/index.js';
import { citationLinker, linkCitations } from '../../../api/assistant/index.js';
import type { Citation } from '../../../api/assistant/index.js';

const citations: Citation[] = [
  { id: 'src_1', url: 'https://docs.example.com/guides/install#windows', title: 'Installation › Windows', path: '/guides/install' },
  { id: 'src_2', url: 'https://docs.example.com/guides/web hooks(v2)', title: 'Webhooks', path: '/guides/web hooks(v2)' },
];
const W = 'https://docs.example.com/guides/install#windows';
const H = 'https://docs.example.com/guides/web%20hooks%28v2%29';

/** Feeds the text one character at a time: every marker is cut by a chunk boundary somewhere. */
function streamed(text: string): string {
  const linker = citationLinker(citations);
  let out = '';
  for (const c of text) out += linker.push(c);
  return out + linker.flush();
}

describe('citation links', () => {
  const cases: Array<[string, string, string]> = [
    ['links markers, adjacent ones too', 'Run it as admin [1].\nSigned[2][1]', `Run it as admin [[1]](${W}).\nSigned[[2]](${H})[[1]](${W})`],
    ['leaves numbers no citation has', 'See [3] and [0].', 'See [3] and [0].'],
    ['leaves links and reference definitions', '[1](https://x.dev) and\n[2]: https://y.dev', '[1](https://x.dev) and\n[2]: https://y.dev'],
    ['leaves inline code', 'Use `arr[1]` or ``a[2]`` then [1]', `Use \`arr[1]\` or \`\`a[2]\`\` then [[1]](${W})`],
    ['leaves fenced code, also in a quote', '> ```js\n> x[1]\n> ```\n[2]', `> \`\`\`js\n> x[1]\n> \`\`\`\n[[2]](${H})`],
    ['leaves tilde fences', '~~~\n[1]\n~~~\nok [1]', `~~~\n[1]\n~~~\nok [[1]](${W})`],
    ['does not link a marker inside brackets', '[[1]] and [note [1]', `[[1]] and [note [[1]](${W})`],
    ['ends on a marker', 'last [2]', `last [[2]](${H})`],
    ['ends on a partial marker', 'odd [1', 'odd [1'],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => {
      assert.equal(linkCitations(input, citations), expected);
      assert.equal(streamed(input), expected);
    });
  }

  it('holds back only what a later chunk could turn into a marker', () => {
    const linker = citationLinker(citations);
    assert.equal(linker.push('Install it [') , 'Install it ');
    assert.equal(linker.push('1'), '');
    assert.equal(linker.push(']'), '');
    assert.equal(linker.push(' now'), `[[1]](${W}) now`);
    assert.equal(linker.flush(), '');
  });

  it('reads a page path from a path or a URL of the site', () => {
    assert.equal(pagePathFrom('https://docs.example.com', '/guides/webhooks'), '/guides/webhooks');
    assert.equal(pagePathFrom('https://docs.example.com/', 'https://docs.example.com/guides/webhooks#verify'), '/guides/webhooks');
    assert.equal(pagePathFrom('https://example.com/docs/', 'https://example.com/docs/guides/web%20hooks?x=1'), '/guides/web hooks');
    assert.equal(pagePathFrom('https://example.com/docs', 'https://example.com/docs'), '/docs');
    assert.equal(pagePathFrom('https://docs.example.com', 'http://DOCS.example.com/guides/webhooks'), '/guides/webhooks');
    assert.equal(pagePathFrom('https://docs.example.com', 'https://github.com/example/guides/webhooks'), undefined);
  });
});
