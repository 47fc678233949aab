/** The ping workflow's contract: a round trip through a worker (readiness checks, tests, benchmarks). */
export const PING_WORKFLOW = 'pingWorkflow';
export type PingWorkflow = (message: string) => Promise<string>;
