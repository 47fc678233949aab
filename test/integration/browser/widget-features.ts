import path from 'node:path';
import type { Page } from 'playwright-core';
import { analyticsRouter } from '../../../api/analytics/index.js';
import type { Feature } from '../../../api/services.js';
import { widgetRouter } from '../../../api/widget/index.js';
import { buildWidget } from '../../../infra/build-widget.js';
import { tempDir } from '../../support/services.js';
import { REPO_ROOT } from '../../support/temporal.js';

/**
 * The features a page with the widget talks to beside the assistant: the widget's script, built
 * from source into a temporary folder as `npm run build` builds it, and the analytics routes its
 * page-view beacon calls.
 */
export async function widgetFeatures(): Promise<Feature[]> {
  const bundlePath = path.join(await tempDir('quire-widget-'), 'widget.js');
  await buildWidget(bundlePath, REPO_ROOT);
  return [analyticsRouter, (s) => widgetRouter(s, { bundlePath })];
}

/** Evaluates `expression` against the widget's shadow root (as `root`); a string: the tests are compiled without the DOM library. */
export const inWidget = (page: Page, expression: string) => page.evaluate(`(() => { const root = document.getElementById('quire-widget').shadowRoot; return ${expression}; })()`);

/** Opens the widget's panel from its launcher, once the question box shows. */
export async function openWidget(page: Page): Promise<void> {
  await page.locator('#quire-widget button.launcher').click();
  await page.locator('#quire-question').waitFor({ state: 'visible' });
}

/** Asks in the widget and waits until the n-th answer has finished. */
export async function ask(page: Page, question: string, n: number) {
  await page.fill('#quire-question', question);
  await page.keyboard.press('Enter');
  const answer = page.locator('#quire-widget .answer').nth(n - 1);
  await answer.waitFor();
  await page.waitForFunction(`!document.getElementById('quire-widget').shadowRoot.querySelector('.log').hasAttribute('aria-busy')`);
  return answer;
}

/** A node of Chromium's accessibility tree: what assistive technology is given. */
export interface AxNode {
  role: string;
  name: string;
  description: string;
}

/** The page's accessibility tree as Chromium exposes it (DevTools protocol), ignored nodes left out. */
export async function accessibilityTree(page: Page): Promise<AxNode[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    return nodes
      .filter((node) => !node.ignored)
      .map((node) => ({ role: String(node.role?.value ?? ''), name: String(node.name?.value ?? ''), description: String(node.description?.value ?? '') }));
  } finally {
    await cdp.detach();
  }
}

/** The widget's tag as a docs site embeds it: from the API at `apiUrl`, for `domain` with an assistant `key`; `extra` adds attributes (each with its leading space). */
export function widgetTag(apiUrl: string, domain: string, key: string, extra = ''): string {
  return `<script src="${apiUrl}/widget.js" data-domain="${domain}" data-key="${key}"${extra} async></script>`;
}

/** A docs site's page: `body` as it is, under `<html>` with `attributes` (its language, its direction); `head` adds to its head. */
export function docsPage(title: string, body: string, attributes = 'lang="en"', head = ''): string {
  return `<!doctype html><html ${attributes}><head><meta charset="utf-8">${head}<link rel="icon" href="data:,"><title>${title}</title></head><body>${body}</body></html>`;
}
