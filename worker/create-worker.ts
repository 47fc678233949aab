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
    interceptors,
    sinks,
  });
}
