import type { Client } from '@temporalio/client';
import { rootReason } from '../core/errors.js';
import { followTaskQueue } from '../core/index-runs/index.js';
import type { Logger } from '../core/logger.js';
import type { TenantStore } from '../core/tenants/index.js';

/**
 * In the background at a worker's start: the polled domains' schedules that fire on another task
 * queue (the deployment moved to this worker's, which alone is polled now) are moved to it, and a
 * missing one is made. Each is logged; a failure is logged and left to the next worker's start.
 */
export async function followPollSchedules(temporal: Client, tenants: Pick<TenantStore, 'listDomains'>, taskQueue: string, logger: Logger): Promise<void> {
  try {
    for (const { domainId, from } of await followTaskQueue(temporal, taskQueue, await tenants.listDomains())) {
      const fields = { domainId, taskQueue, ...(from ? { from } : {}) };
      logger.info(fields, from ? "moved a domain's poll schedule to this worker's task queue" : "made a domain's missing poll schedule");
    }
  } catch (err) {
    logger.warn({ reason: rootReason(err), taskQueue }, "cannot bring the domains' poll schedules to this worker's task queue: the next worker start tries again");
  }
}
