import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { CONSOLE_BASE, CONSOLE_DIST_PATH, CONSOLE_ENTRY, CONSOLE_FIRST_LOAD_LIMIT_BYTES } from '../core/console-bundle.js';

const REPO_ROOT = path.resolve(__dirname, path.basename(path.resolve(__dirname, '..')) === 'dist' ? '../..' : '..');

export interface ConsoleBuild {
  /** What a first visit loads, as served paths: the script and stylesheet index.html names (`/console/assets/main-3FA2.js`), and the chunks the script imports. */
  assets: string[];
  /** The chunks a page imports only when it opens (the thread page's renderer), as served paths. */
  lazy: string[];
  /** index.html and every asset of `assets`, gzip-compressed, in bytes: what a first visit downloads. */
  firstLoadGzipBytes: number;
}

/**
 * Bundles the console (`console/`, Preact and Chart.js) into `dist/console`:
 * a hashed script and stylesheet under `assets/` and an index.html that loads
 * them, and the hashed chunks pages import when they open (`import()`). No
 * inline script or style, so the strict CSP (`default-src 'self'`) the API
 * sends with it holds.
 */
export async function buildConsole(outDir = CONSOLE_DIST_PATH, root = REPO_ROOT): Promise<ConsoleBuild> {
  const result = await build({
    entryPoints: [path.join(root, CONSOLE_ENTRY)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    outdir: path.join(outDir, 'assets'),
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    splitting: true,
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const files = result.outputFiles.filter((f) => !f.path.endsWith('.map'));
  const served = (f: { path: string }) => `${CONSOLE_BASE}/assets/${path.basename(f.path)}`;
  const outputs = Object.entries(result.metafile.outputs).map(([file, output]) => ({ file: path.basename(file), ...output }));
  const entry = outputs.find((o) => o.entryPoint !== undefined && path.resolve(o.entryPoint) === path.join(root, CONSOLE_ENTRY));
  const script = files.find((f) => path.basename(f.path) === entry?.file);
  const style = files.find((f) => path.basename(f.path) === (entry?.cssBundle && path.basename(entry.cssBundle)));
  if (!entry || !script || !style) throw new Error('esbuild produced no console script or stylesheet');
  const html = indexHtml(served(script), served(style));
  // What the first visit loads: the script, its stylesheet, and what the script imports statically, chunk by chunk.
  const firstLoad = new Set([path.basename(script.path), path.basename(style.path)]);
  for (const name of firstLoad) {
    for (const imported of outputs.find((o) => o.file === name)?.imports ?? []) if (imported.kind === 'import-statement') firstLoad.add(path.basename(imported.path));
  }

  await fs.rm(path.join(outDir, 'assets'), { recursive: true, force: true });
  await fs.mkdir(path.join(outDir, 'assets'), { recursive: true });
  await Promise.all(files.map((f) => fs.writeFile(f.path, f.contents)));
  await fs.writeFile(path.join(outDir, 'index.html'), html);

  const loaded = files.filter((f) => firstLoad.has(path.basename(f.path)));
  const gzipped = [Buffer.from(html), ...loaded.map((f) => f.contents)].reduce((n, bytes) => n + gzipSync(bytes, { level: 9 }).byteLength, 0);
  return { assets: loaded.map(served), lazy: files.filter((f) => !firstLoad.has(path.basename(f.path))).map(served), firstLoadGzipBytes: gzipped };
}

function indexHtml(script: string, style: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Quire console</title>',
    // No favicon request (a 404 in every visit's log); data: is allowed by the CSP's img-src.
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="${style}">`,
    `<script type="module" src="${script}"></script>`,
    '</head>',
    '<body>',
    '<div id="app"></div>',
    '<noscript>The Quire console needs JavaScript.</noscript>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

if (require.main === module) {
  buildConsole().then(
    ({ firstLoadGzipBytes }) => {
      const kib = (firstLoadGzipBytes / 1024).toFixed(1);
      const limit = (CONSOLE_FIRST_LOAD_LIMIT_BYTES / 1024).toFixed(0);
      process.stdout.write(`console: first load ${kib} KiB gzip (limit ${limit} KiB)\n`);
      if (firstLoadGzipBytes > CONSOLE_FIRST_LOAD_LIMIT_BYTES) {
        console.error('error: the console first load is over its limit');
        process.exit(1);
      }
    },
    (err: unknown) => {
      console.error('error: could not bundle the console:', err);
      process.exit(1);
    },
  );
}
