/**
 * Shares one read among the callers that ask while it runs, without serving
 * anyone a read that began before they asked: callers arriving during a read
 * wait for the next one, which starts when it ends. Under load, one `stat` of
 * the tenant file answers dozens of requests, yet a change made before a
 * request arrived is always seen by it.
 */
export function freshReads<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let queued: Promise<T> | undefined;
  const start = (): Promise<T> => {
    running = read().finally(() => {
      running = undefined;
    });
    return running;
  };
  return () => {
    if (!running) return start();
    queued ??= running.then(
      () => undefined,
      () => undefined,
    ).then(() => {
      queued = undefined;
      return running ?? start();
    });
    return queued;
  };
}
