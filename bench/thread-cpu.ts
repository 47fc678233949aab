import fs from 'node:fs';

/**
 * The calling thread's CPU time in ms (Linux: utime + stime, in clock ticks of 10 ms), or
 * undefined where `/proc/thread-self` does not exist. Beside `process.cpuUsage()` (every thread
 * of the process) it tells the main thread's share from the rest: the completion writer's thread,
 * V8's garbage-collection helpers, libuv's pool.
 */
export function threadCpuMs(): number | undefined {
  try {
    const fields = fs.readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}
