/**
 * The scripted model in its own process for the benchmark: a real provider
 * never shares the API's process, so its work must not count against the API.
 * Prints its base URL on the first line of stdout.
 */
import { startFakeModel } from '../test/fakes/chat-completions-server.js';

const tokens = Number(process.argv[2] ?? 200);
const answer = Array.from({ length: tokens }, (_, i) => `tok${i}`).join(' ');
const delayMs = Number(process.argv[3] ?? 0);

startFakeModel(() => ({ text: answer }))
  .then((model) => {
    model.chunkDelayMs = delayMs;
    process.stdout.write(`${model.baseUrl}\n`);
    process.on('SIGTERM', () => void model.close().then(() => process.exit(0)));
  })
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
