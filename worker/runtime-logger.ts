import type { LogLevel, LogMetadata, Logger as TemporalLogger } from '@temporalio/common';
import { agentJobWorkflowId } from '../core/contracts/agent-job.js';
import type { Logger } from '../core/logger.js';

const JOB_PREFIX = agentJobWorkflowId('');
const LEVELS = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

/** The job a workflow runs for, read back from the contract's id scheme. */
function jobIdOf(workflowId: unknown): string | undefined {
  return typeof workflowId === 'string' && JOB_PREFIX && workflowId.startsWith(JOB_PREFIX) ? workflowId.slice(JOB_PREFIX.length) : undefined;
}

/**
 * The Temporal SDK's logger (Runtime.install) writing through pino: the SDK's own lines, the
 * workflow `log` sink and activity context logs become JSON lines like every other, with the
 * workflow id, job id and, from the tracing interceptors, trace_id and span_id.
 */
export function temporalLogger(logger: Logger): TemporalLogger {
  const log = (level: LogLevel, message: string, meta: LogMetadata = {}) => {
    const fields: Record<string, unknown> = { ...meta };
    const jobId = jobIdOf(fields.workflowId);
    if (jobId && fields.jobId === undefined) fields.jobId = jobId;
    logger[LEVELS[level]](fields, message);
  };
  return {
    log,
    trace: (message, meta) => log('TRACE', message, meta),
    debug: (message, meta) => log('DEBUG', message, meta),
    info: (message, meta) => log('INFO', message, meta),
    warn: (message, meta) => log('WARN', message, meta),
    error: (message, meta) => log('ERROR', message, meta),
  };
}
