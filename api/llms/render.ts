import type { PageListing } from '../../core/retrieval/index.js';
import { pageUrl } from '../ai-tools/index.js';

/** What the header of both files says about the site. */
export interface Site {
  baseUrl: string;
  /** The H1: the site's host name. */
  name: string;
  /** The blockquote: the home page's description, else a plain statement. */
  summary: string;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
/** Brackets in a title would end the link text early. */
const linkText = (text: string) => oneLine(text).replace(/([[\]\\])/g, '\\$1');

/** The H2 a page is listed under: its navigation trail, else its top folder, else "Pages". */
function sectionOf(page: PageListing): string {
  if (page.sections?.length) return page.sections.join(' › ');
  const folder = page.path.split('/').filter(Boolean);
  if (folder.length < 2) return 'Pages';
  const name = folder[0]!.replace(/[-_]+/g, ' ');
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export function siteOf(baseUrl: string, pages: PageListing[]): Site {
  const home = pages.find((p) => p.path === '/');
  const name = new URL(baseUrl).host;
  const summary = home?.description ? oneLine(home.description) : `The documentation of ${name}: ${pages.length} pages.`;
  return { baseUrl, name, summary };
}

function header(site: Site): string {
  return `# ${site.name}\n\n> ${site.summary}\n`;
}

/**
 * llms.txt (llmstxt.org): an H1 with the site name, a blockquote summary,
 * then one H2 per section with `- [Title](url): description` lines. Sections
 * follow the pages' path order; pages keep it within their section.
 */
export function renderLlmsTxt(site: Site, pages: PageListing[]): string {
  const sections = new Map<string, string[]>();
  for (const page of pages) {
    const line = `- [${linkText(page.title)}](${pageUrl(site.baseUrl, page.path)})${page.description ? `: ${oneLine(page.description)}` : ''}`;
    const section = sectionOf(page);
    sections.set(section, [...(sections.get(section) ?? []), line]);
  }
  const body = [...sections].map(([name, lines]) => `## ${name}\n\n${lines.join('\n')}\n`);
  return [header(site), ...body].join('\n');
}

/** llms-full.txt: the same header, then every page's Markdown under its title and URL. */
export function renderLlmsFullTxt(site: Site, pages: PageListing[]): string {
  const body = pages.map((page) => `# ${oneLine(page.title)}\n\nSource: ${pageUrl(site.baseUrl, page.path)}\n\n${(page.content ?? '').trim()}\n`);
  return [header(site), ...body].join('\n');
}
