import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { parsePage } from '../../../core/docs/index.js';
import { chunkPage } from '../../../core/retrieval/chunk-page.js';

function chunksOf(source: string, opts = { maxChars: 1500, overlapChars: 300 }, isMdx = true) {
  const { blocks } = parsePage(isMdx ? 'guide.mdx' : 'guide.md', source);
  return chunkPage({ path: '/guide', title: 'Guide', blocks, groups: [] }, opts);
}

describe('chunkPage', () => {
  it('splits by headings with breadcrumbs and github-slugger anchors', () => {
    const chunks = chunksOf('Intro text.\n\n## Install it\n\nRun it.\n\n### On macOS!\n\nBrew.\n\n## Install it\n\nAgain.\n\n#### Deep\n\nStays.\n');
    assert.deepEqual(
      chunks.map((c) => [c.anchor, c.breadcrumb]),
      [
        ['', ['Guide']],
        ['install-it', ['Guide', 'Install it']],
        ['on-macos', ['Guide', 'Install it', 'On macOS!']],
        ['install-it-1', ['Guide', 'Install it']],
      ],
    );
    assert.match(chunks[3]!.content, /#### Deep\n\nStays\./);
    assert.ok(chunks.every((c) => c.title === 'Guide' && c.path === '/guide'));
  });

  it('never cuts a code block, even one larger than the chunk size', () => {
    const code = Array.from({ length: 80 }, (_, i) => `const line${i} = ${i};`).join('\n\n');
    const source = `## Code\n\n${'Words here. '.repeat(20)}\n\n\`\`\`ts\n${code}\n\`\`\`\n\nAfter the code.\n`;
    const chunks = chunksOf(source, { maxChars: 400, overlapChars: 100 });
    const holding = chunks.filter((c) => c.content.includes('const line0'));
    assert.equal(holding.length, 1);
    assert.ok(holding[0]!.content.includes('const line79 = 79;\n```'));
    assert.ok(chunks.length >= 2);
  });

  it('cuts long prose with a little overlap between chunks of one section', () => {
    const paragraphs = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} ${'talks about queues. '.repeat(8)}`);
    const chunks = chunksOf(`## Long\n\n${paragraphs.join('\n\n')}\n`, { maxChars: 400, overlapChars: 200 });
    assert.ok(chunks.length >= 3);
    for (const c of chunks) assert.ok(c.content.length <= 400 + 200, `chunk of ${c.content.length}`);
    // The last paragraph of one chunk opens the next.
    const lastOfFirst = chunks[0]!.content.split('\n\n').pop()!;
    assert.ok(chunks[1]!.content.includes(lastOfFirst));
  });

  it('cuts long Chinese or Japanese prose after its 。！？, which no space follows, and joins it back without one', () => {
    const paragraph = Array.from({ length: 40 }, (_, i) => `キュー${i}の設定は管理画面から変更できます。`).join('');
    const chunks = chunksOf(`## 設定\n\n${paragraph}\n`, { maxChars: 400, overlapChars: 200 });
    assert.ok(chunks.length >= 3, `${chunks.length} chunks`);
    for (const c of chunks) assert.ok(c.content.length <= 400 + 200, `chunk of ${c.content.length}`);
    for (const c of chunks) assert.doesNotMatch(c.content, /。 /);
    assert.ok(chunks.some((c) => c.content.includes('キュー39の設定は管理画面から変更できます。')));
  });

  it('cuts a sentence longer than a chunk between words, or between characters where there is no space', () => {
    const words = Array.from({ length: 300 }, (_, i) => `word${i}`);
    const emoji = '😀'.repeat(500);
    const chinese = Array.from({ length: 300 }, (_, i) => `队列${i}`).join('');
    for (const [label, text] of [['unpunctuated prose', words.join(' ')], ['one long word of emoji', emoji], ['Chinese with no 。', chinese]] as const) {
      const chunks = chunksOf(`## Long\n\n${text}\n`, { maxChars: 400, overlapChars: 200 });
      assert.ok(chunks.length >= 3, `${label}: ${chunks.length} chunks`);
      for (const c of chunks) assert.ok(c.content.length <= 400 + 200, `${label}: a chunk of ${c.content.length}`);
      assert.ok(chunks.every((c) => !/[\uD800-\uDBFF]$|^[\uDC00-\uDFFF]/.test(c.content.replace(/^## Long\n\n/, ''))), `${label}: a surrogate pair was cut`);
      const joined = chunks.map((c) => c.content.replace(/^## Long\n\n/, '')).join(' ');
      if (label === 'unpunctuated prose') for (const w of words) assert.ok(new RegExp(`\\b${w}\\b`).test(joined), `${w} is kept whole`);
      else assert.equal(joined.replace(/\s/g, '').length >= text.length, true, `${label}: every character kept`);
    }
  });

  it('cuts a long table or list between its lines, each piece of a table under its header', () => {
    const rows = Array.from({ length: 400 }, (_, i) => `| E${1000 + i} | The request was refused for reason number ${i}. |`);
    const items = Array.from({ length: 400 }, (_, i) => `- flag-${i}: turns feature ${i} on`);
    for (const isMdx of [true, false]) {
      const chunks = chunksOf(`## Error codes\n\n| Code | Meaning |\n| --- | --- |\n${rows.join('\n')}\n\n## Flags\n\n${items.join('\n')}\n`, undefined, isMdx);
      assert.ok(chunks.length > 10, `${chunks.length} chunks`);
      assert.ok(chunks.every((c) => c.content.length <= 1500 + '## Error codes\n\n'.length), chunks.map((c) => c.content.length).join(','));
      const table = chunks.filter((c) => c.anchor === 'error-codes');
      assert.ok(table.every((c) => c.content.startsWith('## Error codes\n\n| Code | Meaning |\n| --- | --- |\n|')), table[1]?.content.slice(0, 80));
      assert.equal(table.flatMap((c) => c.content.split('\n').filter((l) => /^\| E\d+/.test(l))).length, 400, 'every row once (overlap aside)');
      assert.ok(chunks.some((c) => c.anchor === 'flags' && c.content.includes('- flag-399: turns feature 399 on')));
    }
  });

  it('keeps the text of MDX components and drops their markup, imports and expressions', () => {
    const source = [
      "import { Tip } from '/snippets/tip.mdx'",
      '',
      '## Setup',
      '',
      '<Note title="Careful">',
      '  Set **retries** before {props.name} deploying.',
      '</Note>',
      '',
      'Inline <Badge color="red">beta</Badge> feature.',
      '',
      '<CodeGroup>',
      '```bash',
      'npm install x',
      '```',
      '</CodeGroup>',
    ].join('\n');
    const [chunk] = chunksOf(source);
    assert.ok(chunk);
    assert.doesNotMatch(chunk.content, /<|import|props\.name|\{|\}/);
    assert.match(chunk.content, /\*\*Careful\*\*/);
    assert.match(chunk.content, /Set \*\*retries\*\* before\s+deploying\./);
    assert.match(chunk.content, /Inline beta feature\./);
    assert.match(chunk.content, /```bash\nnpm install x\n```/);
  });
  it('dedents code fences nested in MDX components, so they open and close at the same indentation', () => {
    const source = [
      '## Setup',
      '',
      '<Steps>',
      '  <Step title="Install">',
      '    Run the installer:',
      '',
      '    ```bash',
      '    npm install -g quire-cli',
      '      quire --version',
      '    ```',
      '',
      '    Then log in.',
      '  </Step>',
      '</Steps>',
      '',
    ].join('\n');
    const [chunk] = chunksOf(source);
    const lines = chunk!.content.split('\n');
    const fences = lines.filter((l) => l.trimStart().startsWith('```'));
    assert.deepEqual(fences, ['```bash', '```']);
    assert.ok(lines.includes('npm install -g quire-cli'));
    assert.ok(lines.includes('  quire --version'), 'indentation inside the code is kept relative to the fence');
    // Rendered, the text after the code is prose again.
    const html = new MarkdownIt().render(chunk!.content);
    assert.match(html, /<p>Then log in\.<\/p>/);
  });
});
