import assert from 'node:assert/strict';
import { checkMdxGrammar, PageSyntaxError, parsePage, readFrontmatter } from '../../../core/docs/index.js';

const syntaxError = (line: number, reason: RegExp) => (err: unknown) => err instanceof PageSyntaxError && err.line === line && reason.test(err.reason);

describe('docs module: reading a page', () => {
  it('reads frontmatter alone, without the body, and says where it breaks', () => {
    assert.deepEqual(readFrontmatter('---\ntitle: A\nnoindex: true\n---\n\n# Body\n'), {
      frontmatter: { title: 'A', noindex: true },
      body: '\n# Body\n',
      bodyLine: 4,
    });
    assert.deepEqual(readFrontmatter('# No frontmatter\n').frontmatter, {});
    assert.ok([3, 4].includes(readFrontmatter('---\ntitle: A\nbad: [x\n---\n').problem?.line ?? 0));
    assert.match(readFrontmatter('---\ntitle: A\n').problem?.message ?? '', /never closed/);
    assert.match(readFrontmatter('---\n- a\n---\n').problem?.message ?? '', /mapping/);
  });

  it('reads MDX flow: components keep their text and title, imports and expressions go, fences may be indented', () => {
    const source = [
      '---',
      'title: Guide',
      '---',
      "import { Steps } from '/snippets/steps.mdx'",
      'export const answer = 42',
      '',
      '{/* a comment */}',
      '',
      '<Steps>',
      '  <Step title="Install">',
      '    Run the installer.',
      '',
      '    ```bash',
      '    npm i <not-a-tag>',
      '    ```',
      '  </Step>',
      '</Steps>',
      '',
      '<Card',
      '  title="Next"',
      '  href="/next"',
      '/>',
      '',
      '## After {answer}',
      '',
      'Text with <Tooltip tip="x">a tip</Tooltip> in it.',
    ].join('\n');
    const page = parsePage('guide.mdx', source);
    assert.deepEqual(
      page.blocks.map((b) => [b.kind, b.text, b.code]),
      [
        ['text', '**Install**\n\nRun the installer.\n\n```bash\nnpm i <not-a-tag>\n```', true],
        ['text', '**Next**', false],
        ['heading', 'After', false],
        ['text', 'Text with a tip in it.', false],
      ],
    );
    assert.deepEqual(page.links(), [{ url: '/next', line: 19 }]);
  });

  it('leaves out HTML comments, which the site never shows, but not code that holds one', () => {
    const source = [
      '<!-- internal: the enterprise discount is 40% -->',
      '',
      'Plans start at 10 USD.<!-- check with sales -->',
      '',
      '<!--',
      '',
      'roadmap: dark mode in May',
      '',
      '-->',
      '',
      '<Note>',
      'Billed monthly. <!-- or yearly? -->',
      '</Note>',
      '',
      '```html',
      '<!-- keep this: it is the example -->',
      '```',
      '',
      'Write `<!-- x -->` to hide a line.',
    ].join('\n');
    for (const file of ['pricing.md', 'pricing.mdx']) {
      const texts = parsePage(file, source).blocks.map((b) => b.text);
      const shown = texts.filter((t) => !t.startsWith('```') && !t.startsWith('Write'));
      assert.ok(shown.every((t) => !/<!--|-->|discount|sales|roadmap|yearly/.test(t)), `${file}: ${JSON.stringify(texts)}`);
      assert.ok(texts.some((t) => t.includes('Plans start at 10 USD.')), file);
      assert.ok(texts.some((t) => t.includes('Billed monthly.')), file);
      assert.ok(texts.includes('```html\n<!-- keep this: it is the example -->\n```'), `${file}: ${JSON.stringify(texts)}`);
      assert.ok(texts.includes('Write `<!-- x -->` to hide a line.'), file);
    }
  });

  it('reports an unclosed or mismatched component with its file line; Markdown files have no components', () => {
    assert.throws(() => parsePage('a.mdx', '---\ntitle: A\n---\n\n<Note>\n\ntext\n'), syntaxError(5, /closing tag for <Note>/));
    assert.throws(() => parsePage('a.mdx', '<Tabs>\n<Tab>\n</Tabs>\n'), syntaxError(3, /closing tag for <Tab>/));
    assert.throws(() => parsePage('a.mdx', 'Text.\n\n</Note>\n'), syntaxError(3, /no opening tag/));
    assert.throws(() => parsePage('a.mdx', '# Hi\n\nSome <Note>unclosed\ntext.\n'), syntaxError(3, /closing tag for <Note>/));
    assert.equal(parsePage('a.mdx', 'Code `<Note>` is text.\n').blocks[0]?.text, 'Code `<Note>` is text.');
    assert.deepEqual(parsePage('a.md', '<Note>\n\ntext\n').blocks.map((b) => b.text), ['<Note>', 'text']);
  });

  it('gives every Markdown link its own line', () => {
    const page = parsePage('a.md', '---\nt: 1\n---\n# A\n\nFirst [one](/one) and\na wrapped [two](./two).\n\n- [three][ref]\n\n[ref]: /three\n');
    assert.deepEqual(page.links(), [
      { url: '/one', line: 6 },
      { url: './two', line: 7 },
      { url: '/three', line: 9 },
    ]);
  });

  it('strips inline markup from headings the way a reader sees them', () => {
    const page = parsePage('a.mdx', '# Use `retries` with **care**\n\n## [Linked](/x) heading\n');
    assert.deepEqual(page.blocks.map((b) => b.text), ['Use retries with care', 'Linked heading']);
  });

  it('holds MDX to the compiler grammar separately, with the file line', () => {
    assert.equal(checkMdxGrammar('---\ntitle: A\n---\n\n<Note title="ok">fine</Note>\n'), undefined);
    const err = checkMdxGrammar('---\ntitle: A\n---\n\n<Note title={(}>x</Note>\n');
    assert.ok(err);
    assert.equal(err.line, 5);
  });
});
