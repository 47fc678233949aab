import path from 'node:path';

/** The repository root, whether this file runs compiled (`dist/core`) or from source (`core`, under tsx). */
const REPO_ROOT = path.resolve(__dirname, path.basename(path.resolve(__dirname, '..')) === 'dist' ? '../..' : '..');

/**
 * Where `npm run build` writes the console and the API serves it from:
 * `dist/console/index.html` and `dist/console/assets/<name>-<hash>.js|css`.
 */
export const CONSOLE_DIR = path.join(REPO_ROOT, 'dist', 'console');

/** The console's entry point in the source tree, relative to the repository root. */
export const CONSOLE_ENTRY = path.join('console', 'main.tsx');

/** The URL path the console is served under; its assets are under `${CONSOLE_BASE}/assets/`. */
export const CONSOLE_BASE = '/console';

/** The most the first load of the console may weigh, gzip-compressed: index.html and what it loads. */
export const CONSOLE_FIRST_LOAD_LIMIT_BYTES = 200 * 1024;
