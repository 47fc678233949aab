import type { IndexedPage } from '../../../core/retrieval/index.js';

/** A small docs site, indexed into the real embedded store. */
export function docsPage(p: string, title: string, sections: Array<{ heading: string; anchor: string; text: string }>, groups: string[] = []): IndexedPage {
  return {
    path: p,
    title,
    hash: `${p}:${sections.length}`,
    content: sections.map((s) => `## ${s.heading}\n\n${s.text}`).join('\n\n'),
    groups,
    chunks: sections.map((s) => ({
      path: p,
      anchor: s.anchor,
      title,
      breadcrumb: [title, s.heading],
      content: s.text,
      headings: s.heading,
      groups,
    })),
  };
}

export const SITE: IndexedPage[] = [
  docsPage('/guides/install', 'Installation', [
    { heading: 'Install the CLI', anchor: 'install-the-cli', text: 'Install the Quire CLI with npm install -g quire-cli. It needs Node 20 or later.' },
    { heading: 'Windows', anchor: 'windows', text: 'On Windows, run the installer from PowerShell as administrator.' },
  ]),
  docsPage('/guides/webhooks', 'Webhooks', [
    { heading: 'Signing secrets', anchor: 'signing-secrets', text: 'Every webhook request is signed with HMAC SHA-256 using your signing secret.' },
  ]),
  docsPage('/internal/billing', 'Billing internals', [
    { heading: 'Invoices', anchor: 'invoices', text: 'Invoices are generated monthly by the billing service.' },
  ], ['staff']),
];

