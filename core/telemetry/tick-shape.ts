import { executionAsyncResource } from 'node:async_hooks';

/** The record of one `process.nextTick` callback, kept for the life of the process. */
let kept: object | undefined;

/**
 * Keeps one of Node's `process.nextTick` records alive for the life of the process, so the
 * hidden-class chain every such record is built along stays registered in V8.
 *
 * Node builds each record as a fresh object literal (`{ [async_id]: …, [trigger_id]: …,
 * callback, args }`) from the empty object's hidden class. V8 registers at most 1536 ways out of
 * one hidden class, and the empty object's is shared by every `{}` of the process: a process
 * that loads the tracing SDK, its exporters and Temporal's protocol definitions comes within a
 * few dozen of that limit. When a collection drops the records' chain (no record alive at that
 * moment, which happens between bursts) while the limit is reached, V8 can no longer register
 * it again and builds new hidden classes for every record from then on: each `nextTick` cost
 * about ten times as much (and fed the collector), in traced and untraced processes alike, at
 * random from one process to the next. A record held here keeps its chain alive, so it is never
 * dropped.
 *
 * It must run before the app's modules load (`startTracing` calls it, and the entry points
 * start tracing in their first import): loading them fills the list, and a collection during
 * that synchronous stretch, when no record is alive, can drop the chain. The record queued here
 * is alive through the loading and is kept from its callback on.
 */
export function keepTickShape(): void {
  if (kept) return;
  // Inside a tick's callback, the current async resource is that tick's record.
  process.nextTick(() => {
    kept = executionAsyncResource();
  });
}
