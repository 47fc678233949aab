import fs from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOW_TRACING_MODULE } from './telemetry.js';

/** Where the prebuilt workflow bundle lives, next to the compiled worker. */
export const BUNDLE_PATH = path.resolve(__dirname, '..', 'workflow-bundle.js');

/** Bundles `workflows/` once at build time so the worker starts without webpack. */
export async function buildBundle(): Promise<void> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    workflowInterceptorModules: [WORKFLOW_TRACING_MODULE],
    logger: { info() {}, warn() {}, debug() {}, trace() {}, error: console.error, log() {} },
  });
  await fs.writeFile(BUNDLE_PATH, code);
}

if (require.main === module) {
  buildBundle().catch((err: unknown) => {
    console.error('error: could not bundle the workflows:', err);
    process.exit(1);
  });
}
