import type { LogLevel, LogMetadata, Logger as TemporalLogger } from '@temporalio/common';
import { AGENT_JOB_WORKFLOW, jobIdOfWorkflow } from '../core/contracts/agent-job.js';
import type { Logger } from '../core/logger.js';

const LEVELS = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

/**
 * The Temporal SDK's logger (Runtime.install) writing through pino: the SDK's own lines, the
 * workflow `log` sink and activity context logs become JSON lines like every other, with the
 * workflow id, the job id of an agent job's workflow and its activities, and, from the tracing
 * interceptors, trace_id and span_id. The SDK hands a failure over as `error`; it is logged as
 * `err`, which the logger serialises (class, message, stack, causes) with secrets masked, where a
 * plain field would print an Error as `{}`.
 */
export function temporalLogger(logger: Logger): TemporalLogger {
  const log = (level: LogLevel, message: string, meta: LogMetadata = {}) => {
    const { error, ...fields } = meta;
    if (fields.jobId === undefined && fields.workflowType === AGENT_JOB_WORKFLOW && typeof fields.workflowId === 'string') {
      fields.jobId = jobIdOfWorkflow(fields.workflowId);
    }
    if (error !== undefined) fields[error instanceof Error ? 'err' : 'error'] = error;
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
