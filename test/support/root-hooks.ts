import { DefaultLogger, Runtime } from '@temporalio/worker';
import { runTeardowns } from './teardown.js';

// Workers in tests log only warnings; the assertions say what happened.
Runtime.install({ logger: new DefaultLogger('WARN') });

export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await runTeardowns();
  },
};
