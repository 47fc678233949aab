import path from 'node:path';

// Compiled, this file is dist/core/console-bundle.js; run from source (tsx), core/console-bundle.ts.
const here = path.resolve(__dirname, '..');
const distDir = path.basename(here) === 'dist' ? here : path.join(here, 'dist');

/**
 * Where `npm run build` writes the console (`index.html` and `assets/`) and the API
 * serves it from: `dist/console/`, whether the API runs compiled or from source.
 */
export const CONSOLE_DIST_PATH = path.join(distDir, 'console');
