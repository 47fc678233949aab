import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { onSuiteEnd } from './teardown.js';

/** Debian's chromium; `infra/setup.sh --test` installs it (Playwright's own browser download does not work here). */
export const CHROMIUM = '/usr/bin/chromium';

let shared: Promise<Browser> | undefined;

/** One headless Chromium for the whole suite; each test takes a fresh context (its own profile: storage, cache). */
export function browser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run infra/setup.sh --test (apt-get install chromium)`);
  shared ??= chromium
    .launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    .then((b) => {
      onSuiteEnd(() => b.close());
      return b;
    });
  return shared;
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught page errors, as a person with the dev tools open would see them. */
  errors: string[];
  close(): Promise<void>;
}

/** A page in a new context that records every console error and uncaught exception. */
export async function watchedPage(): Promise<WatchedPage> {
  const context = await (await browser()).newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => void errors.push(`uncaught: ${e.message}`));
  return { page, context, errors, close: () => context.close() };
}
