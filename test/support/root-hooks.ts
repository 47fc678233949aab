import { DefaultLogger, Runtime } from '@temporalio/worker';
import { runTeardowns } from './teardown.js';

// Workers in tests log only warnings; the assertions say what happened.
Runtime.install({ logger: new DefaultLogger('WARN') });

export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    // Every server the suites started stops here; on a loaded machine that has taken over a minute.
    this.timeout(180_000);
    await runTeardowns();
  },
};
