import assert from 'node:assert/strict';
import { embeddingProse, PAGE_TEXT_CHARS, pageEmbeddingText } from '../../../core/retrieval/page-embedding.js';
import { LONE_SURROGATE } from '../../../core/unicode.js';
import { readPage } from '../../../core/retrieval/read-page.js';

describe('page embedding text', () => {
  it('keeps the prose of Markdown and drops code blocks, link targets, table rules and marks', () => {
    const markdown = [
      '## Install',
      '',
      'Run the **installer** from the [downloads page](/guides/downloads) with `--quiet`.',
      '',
      '```bash npm',
      'npm install @acme/sdk',
      '```',
      '',
      '| Option | Meaning |',
      '| --- | :---: |',
      '| `retries` | how often a _failed_ request is sent again |',
      '',
      '- keeps snake_case names like feature_flag.key',
      '> A note ![diagram](/img/flow.png)',
    ].join('\n');
    assert.equal(
      embeddingProse(markdown),
      [
        'Install',
        'Run the installer from the downloads page with --quiet.',
        'Option; Meaning',
        'retries; how often a failed request is sent again',
        'keeps snake_case names like feature_flag.key',
        'A note',
      ].join('\n'),
    );
  });

  it('keeps the text after a fence that is never closed', () => {
    assert.equal(embeddingProse('Intro.\n\n```\nnever closed'), 'Intro.\nnever closed');
  });

  it('starts with what describes the page and its sections, then its prose, within the budget', () => {
    const body = Array.from({ length: 40 }, (_, i) => `## Step ${i}\n\nDo part ${i} of the setup.\n\n\`\`\`sh\nrun-step ${i}\n\`\`\``).join('\n\n');
    const page = readPage(
      { file: 'setup.mdx', text: `---\ntitle: Setup\ndescription: Get a project running\n---\n\nBefore you start.\n\n${body}\n` },
      { navigation: undefined, scope: 'site' },
    );
    assert.ok(page);
    const text = pageEmbeddingText(page);
    assert.ok(text.startsWith('Setup\nGet a project running\nSections: Step 0; Step 1;'), text.slice(0, 80));
    assert.match(text, /\n\nBefore you start\.\nStep 0\nDo part 0 of the setup\.\nStep 1\n/);
    assert.doesNotMatch(text, /run-step|```|## /);
    assert.equal(text.length, PAGE_TEXT_CHARS);
  });

  it('cuts a page at its budget between characters, never inside an emoji', () => {
    const page = readPage({ file: 'moods.mdx', text: `# Moods\n\n${'😀'.repeat(PAGE_TEXT_CHARS)}\n` }, { navigation: undefined, scope: 'site' });
    assert.ok(page);
    const text = pageEmbeddingText(page);
    assert.ok(text.length <= PAGE_TEXT_CHARS);
    assert.doesNotMatch(text, new RegExp(LONE_SURROGATE), 'no surrogate left without its pair');
  });
});
