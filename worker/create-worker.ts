import { NativeConnection, Worker } from '@temporalio/worker';
import type { Activities } from '../activities/index.js';
import type { Tracing } from '../core/telemetry/index.js';
import { workerTelemetry } from './telemetry.js';

export interface WorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  activities: Activities;
  /** A prebuilt bundle (production) or the workflows folder (tests bundle once per suite). */
  workflows: { bundlePath: string } | { code: string };
  maxActivities: number;
  shutdownGraceMs: number;
  /** The process's tracing: activity spans join the workflow's trace, workflow spans export through it. */
  tracing: Tracing;
}

/**
 * How often a running activity's heartbeats reach Temporal at most. A cancellation (an archive
 * stopping a turn) reaches the activity only in a heartbeat's answer; the SDK's own throttle is
 * 80% of the heartbeat timeout, 48 s on the default 60 s, longer than the API waits for an archive.
 */
export const HEARTBEAT_THROTTLE = '2 seconds';

export async function createWorker(o: WorkerOptions): Promise<Worker> {
  const { interceptors, sinks } = workerTelemetry(o.tracing);
  return Worker.create({
    connection: o.connection,
    namespace: o.namespace,
    taskQueue: o.taskQueue,
    activities: o.activities,
    workflowBundle: 'bundlePath' in o.workflows ? { codePath: o.workflows.bundlePath } : { code: o.workflows.code },
    maxConcurrentActivityTaskExecutions: o.maxActivities,
    shutdownGraceTime: o.shutdownGraceMs,
    maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
    defaultHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
    interceptors,
    sinks,
  });
}
