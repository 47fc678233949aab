import path from 'node:path';

/**
 * Where `npm run build` writes the widget bundle and the API reads it:
 * `dist/public/widget.js`, beside the compiled code.
 */
export const WIDGET_BUNDLE_PATH = path.resolve(__dirname, '..', 'public', 'widget.js');

/** The widget's entry point in the source tree, relative to the repository root. */
export const WIDGET_ENTRY = path.join('widget', 'main.ts');
