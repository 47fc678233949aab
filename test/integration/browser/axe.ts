import fs from 'node:fs/promises';
import type { Page } from 'playwright-core';

const AXE_SOURCE = require.resolve('axe-core/axe.min.js');

/**
 * axe-core run in the page (evaluated through the DevTools protocol, so the page's CSP does not block it): its
 * serious and critical violations. `enable` turns on rules axe leaves off by default (WCAG 2.2's `target-size`).
 */
export async function seriousViolations(page: Page, enable: string[] = []): Promise<string[]> {
  const source = await fs.readFile(AXE_SOURCE, 'utf8');
  await page.evaluate(source);
  const rules = Object.fromEntries(enable.map((id) => [id, { enabled: true }]));
  const violations = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'], rules: ${JSON.stringify(rules)} }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) })))`,
  )) as Array<{ id: string; impact: string | null; help: string; targets: string[] }>;
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(', ')}`);
}
