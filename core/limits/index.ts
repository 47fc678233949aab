export * from './limiter.js';
export type { Window } from './windows.js';
