import path from 'node:path';

// Compiled, this file is dist/core/console-bundle.js; run from source (tsx), core/console-bundle.ts.
const here = path.resolve(__dirname, '..');
const distDir = path.basename(here) === 'dist' ? here : path.join(here, 'dist');

/**
 * Where `npm run build` writes the console (`index.html` and `assets/`) and the API
 * serves it from: `dist/console/`, whether the API runs compiled or from source.
 */
export const CONSOLE_DIST_PATH = path.join(distDir, 'console');

/** The console's entry point in the source tree, relative to the repository root. */
export const CONSOLE_ENTRY = path.join('console', 'main.tsx');

/** The URL path the console is served under; its assets are under `${CONSOLE_BASE}/assets/`. */
export const CONSOLE_BASE = '/console';

/** The most the first load of the console may weigh, gzip-compressed: index.html and what it loads. */
export const CONSOLE_FIRST_LOAD_LIMIT_BYTES = 200 * 1024;
