/**
 * A generated Mintlify site shaped like a real product's docs: tabs, groups
 * with root pages, a hidden group made searchable, a hidden tab, pages left
 * out of the navigation, a long `noindex` changelog, snippets, and MDX pages
 * of realistic size (components, code groups, tables, parameter lists).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { sentence } from './generate-docs.js';

export interface MintlifySite {
  /** Page files written (snippets excluded). */
  pages: number;
  /** Pages Mintlify would make searchable. */
  searchable: number;
  /** Relative paths of the page files, for edits in a re-index run. */
  files: string[];
}

interface Words {
  draw: () => string;
  random: () => number;
}

function paragraph(w: Words, sentences = 3 + Math.floor(w.random() * 4)): string {
  return Array.from({ length: sentences }, () => sentence(w.draw, w.random)).join(' ');
}

function section(w: Words, i: number, s: number): string {
  const parts = [`## ${w.draw()} ${w.draw()}`, paragraph(w)];
  switch ((i + s) % 5) {
    case 0:
      parts.push(
        `<CodeGroup>\n\`\`\`bash npm\nnpm install @acme/${w.draw()}\n\`\`\`\n\n\`\`\`ts client.ts\nconst ${w.draw()} = new Client({ apiKey: process.env.ACME_KEY, retries: ${s} });\nawait ${w.draw()}.${w.draw()}({ id: '${w.draw()}' });\n\`\`\`\n</CodeGroup>`,
      );
      break;
    case 1:
      parts.push(
        `| Option | Type | Description |\n| --- | --- | --- |\n${Array.from({ length: 4 }, () => `| \`${w.draw()}${w.draw()}\` | string | ${sentence(w.draw, w.random, 6)} |`).join('\n')}`,
      );
      break;
    case 2:
      parts.push(
        `<AccordionGroup>\n${Array.from({ length: 3 }, () => `  <Accordion title="${w.draw()} ${w.draw()}">\n    ${paragraph(w, 2)}\n  </Accordion>`).join('\n')}\n</AccordionGroup>`,
      );
      break;
    case 3:
      parts.push(
        Array.from({ length: 3 }, () => `<ParamField body="${w.draw()}" type="string">\n  ${sentence(w.draw, w.random)}\n</ParamField>`).join('\n\n'),
      );
      break;
    default:
      parts.push(`<Note>\n  ${paragraph(w, 2)}\n</Note>`, `- ${sentence(w.draw, w.random)}\n- ${sentence(w.draw, w.random)}\n- [${w.draw()}](/guides/page-${(i + 1) % 40})`);
  }
  parts.push(paragraph(w));
  return parts.join('\n\n');
}

function page(w: Words, i: number, extra = ''): string {
  const title = `${w.draw()} ${w.draw()} ${i}`.replace(/^./, (c) => c.toUpperCase());
  const sections = Array.from({ length: 4 + Math.floor(w.random() * 4) }, (_, s) => section(w, i, s));
  return `---\ntitle: "${title}"\ndescription: "${sentence(w.draw, w.random, 10)}"\n${extra}---\n\nimport { Snippet } from '/snippets/intro.mdx';\n\n${paragraph(w)}\n\n${sections.join('\n\n')}\n`;
}

/** Writes the site into `dir`; about 265 page files with the default counts. */
export async function writeMintlifySite(dir: string, words: Words, guides = 200): Promise<MintlifySite> {
  const files = new Map<string, string>();
  const guidePages = Array.from({ length: guides }, (_, i) => `guides/page-${i}`);
  const apiPages = Array.from({ length: 30 }, (_, i) => `api-reference/endpoint-${i}`);
  const internal = Array.from({ length: 10 }, (_, i) => `internal/runbook-${i}`);
  const support = Array.from({ length: 10 }, (_, i) => `support/article-${i}`);
  const groups = Array.from({ length: Math.ceil(guides / 20) }, (_, g) => ({
    group: `${words.draw()} ${g}`,
    root: `guides/overview-${g}`,
    pages: guidePages.slice(g * 20, g * 20 + 20),
  }));
  for (const g of groups) files.set(`${g.root}.mdx`, page(words, files.size));
  guidePages.forEach((p, i) => files.set(`${p}.mdx`, page(words, i, i % 50 === 7 ? 'noindex: true\n' : '')));
  for (const p of apiPages) files.set(`${p}.mdx`, page(words, files.size, `openapi: "GET /${words.draw()}"\n`));
  for (const p of [...internal, ...support]) files.set(`${p}.mdx`, page(words, files.size));
  files.set('index.mdx', page(words, 0));
  // A long changelog that Mintlify leaves out of search: dropped before it is parsed.
  const entries = Array.from({ length: 400 }, (_, i) => `<Update label="2024-${(i % 12) + 1}-01" description="v${i}">\n  ${paragraph(words, 3)}\n</Update>`);
  files.set('changelog.mdx', `---\ntitle: Changelog\nnoindex: true\n---\n\n${entries.join('\n\n')}\n`);
  files.set('drafts/unlisted.mdx', page(words, 1));
  files.set('snippets/intro.mdx', `${paragraph(words)}\n`);
  const docsJson = {
    $schema: 'https://mintlify.com/docs.json',
    name: 'Acme',
    navigation: {
      tabs: [
        { tab: 'Guides', groups: [{ group: 'Start', pages: ['index'] }, ...groups] },
        { tab: 'API reference', groups: [{ group: 'Endpoints', pages: apiPages }] },
        { tab: 'Internal', hidden: true, groups: [{ group: 'Runbooks', pages: internal }] },
        { tab: 'Support', hidden: true, searchable: true, groups: [{ group: 'Articles', pages: support }] },
      ],
      global: { anchors: [{ anchor: 'Changelog', href: '/changelog' }] },
    },
  };
  files.set('docs.json', JSON.stringify(docsJson, null, 2));
  for (const [file, text] of files) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), text);
  }
  const pageFiles = [...files.keys()].filter((f) => f.endsWith('.mdx') && !f.startsWith('snippets/'));
  const noindexGuides = guidePages.filter((_, i) => i % 50 === 7).length;
  // Everything but the changelog, the noindex guides, the unlisted draft and the hidden internal tab.
  const searchable = pageFiles.length - 1 - noindexGuides - 1 - internal.length;
  return { pages: pageFiles.length, searchable, files: pageFiles };
}
