import fs from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { WIDGET_BUNDLE_PATH, WIDGET_ENTRY } from '../core/widget-bundle.js';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * Bundles the widget (`widget/`, with markdown-it) into one minified script
 * for `GET /widget.js`. esbuild rather than tsc: the browser needs a single
 * file with its dependencies inlined, and esbuild does that in milliseconds.
 */
export async function buildWidget(outFile = WIDGET_BUNDLE_PATH, root = REPO_ROOT): Promise<number> {
  const result = await build({
    entryPoints: [path.join(root, WIDGET_ENTRY)],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error('esbuild produced no widget bundle');
  await fs.mkdir(path.dirname(outFile), { recursive: true });
  await fs.writeFile(outFile, code);
  return code.byteLength;
}

if (require.main === module) {
  buildWidget().then(
    (bytes) => process.stdout.write(`widget.js: ${(bytes / 1024).toFixed(1)} KiB\n`),
    (err: unknown) => {
      console.error('error: could not bundle the widget:', err);
      process.exit(1);
    },
  );
}
