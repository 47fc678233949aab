import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';

/** The running activity's context, or undefined when called outside one (unit use). */
function currentContext(): Context | undefined {
  try {
    return Context.current();
  } catch {
    return undefined;
  }
}

/** Aborts when Temporal cancels the activity (archive); delivered through heartbeats. */
export function activitySignal(): AbortSignal | undefined {
  return currentContext()?.cancellationSignal;
}

export function heartbeat(details: unknown): void {
  currentContext()?.heartbeat(details);
}

/**
 * Heartbeats on a timer until stopped, so a long model call, clone, push or embedding batch neither
 * looks like a dead worker nor delays an archive: Temporal delivers cancellation only in heartbeat responses.
 * The SDK throttles what reaches the server, so a short interval costs nothing.
 */
export function keepAlive(heartbeatSeconds: number, details: () => unknown): () => void {
  if (!currentContext()) return () => undefined;
  // At least every second: the worker sends one each throttle interval (2 s), and its answer is how a
  // cancellation (an archive) reaches a turn waiting on a long model call.
  const timer = setInterval(() => heartbeat(details()), Math.max(100, Math.min(1000, (heartbeatSeconds * 1000) / 4)));
  timer.unref();
  return () => clearInterval(timer);
}

/** The worker's Temporal client, for an activity that starts or signals workflows; undefined outside an activity. */
export function activityClient(): Client | undefined {
  try {
    return currentContext()?.client;
  } catch {
    // A test's mock activity environment built without a client.
    return undefined;
  }
}

/** This attempt of the running activity (1 for the first); 1 outside an activity. */
export function activityAttempt(): number {
  return currentContext()?.info.attempt ?? 1;
}
