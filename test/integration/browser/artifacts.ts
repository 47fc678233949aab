import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** Where the browser tests keep their screenshots (gitignored): one folder per suite, one file per page state. */
export const ARTIFACTS_DIR = path.resolve(__dirname, '..', '..', '..', 'test-artifacts');

/** A full-page screenshot of the page as it is now, kept as `test-artifacts/{suite}/{state}.png`. */
export async function screenshot(page: Page, suite: string, state: string): Promise<void> {
  const dir = path.join(ARTIFACTS_DIR, suite);
  await fs.mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${state}.png`), fullPage: true });
}
