export * from './limiter.js';
export type { Window } from './windows.js';
export { consumeAgentLimit, DEFAULT_AGENT_CREATES_PER_HOUR, DEFAULT_AGENT_MESSAGES_PER_HOUR } from './agent-limits.js';
