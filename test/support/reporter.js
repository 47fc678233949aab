// The spec reporter, plus one plain closing line ("N passed, N failed") that any CI reads.
const Mocha = require('mocha');

class QuireReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const s = runner.stats;
      process.stdout.write(`${s.passes} passed, ${s.failures} failed${s.pending ? `, ${s.pending} skipped` : ''}\n`);
    });
  }
}

module.exports = QuireReporter;
