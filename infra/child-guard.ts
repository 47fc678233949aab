import { spawn } from 'node:child_process';

/**
 * Runs a program that cannot watch its parent (the Temporal CLI) on behalf of the start command:
 *   node child-guard.js <program> [args…]   (spawned with an IPC channel)
 * Signals to the guard reach the program; when the IPC channel closes because the start command
 * died (even by SIGKILL), the program is stopped, so no dev server outlives its supervisor.
 * The guard ends as the program did: with its code, or killed by the same signal, so the start
 * command reads "SIGKILL" when the program was killed.
 */
function main(): void {
  const [program, ...args] = process.argv.slice(2);
  if (!program) {
    process.stderr.write('usage: child-guard <program> [args…]\n');
    process.exit(2);
  }
  const child = spawn(program, args, { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const forwarded: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
  for (const signal of forwarded) process.on(signal, forward(signal));
  process.on('disconnect', () => {
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
  child.on('error', (err) => {
    process.stderr.write(`child-guard: cannot run ${program}: ${err.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    if (code !== null || !signal) process.exit(code ?? 1);
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
  });
}

if (require.main === module) main();
