// The job start path lives in core/jobs so the worker (automations) starts jobs the same way.
export { createJob, jobRunOptions, jobSettings, newJobRecord, runInput, type JobRequest } from '../../core/jobs/index.js';
