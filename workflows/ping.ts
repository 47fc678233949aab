import { proxyActivities } from '@temporalio/workflow';
import type { PingActivities } from '../activities/ping.js';

const { ping } = proxyActivities<PingActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3 },
});

/** Round trip through a worker: proves a worker polls the task queue and runs activities. */
export async function pingWorkflow(message: string): Promise<string> {
  return await ping(message);
}
