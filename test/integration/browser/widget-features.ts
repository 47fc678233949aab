import path from 'node:path';
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
