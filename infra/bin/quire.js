#!/usr/bin/env node
// The operator command. Runs the compiled CLI, or the TypeScript source in a checkout that was not built yet.
const fs = require('node:fs');
const path = require('node:path');

const compiled = path.join(__dirname, '..', '..', 'dist', 'infra', 'cli', 'main.js');
let cli;
if (fs.existsSync(compiled)) {
  cli = require(compiled).cli;
} else {
  require('tsx/cjs');
  cli = require('../cli/main.ts').cli;
}
cli(process.argv.slice(2)).then((code) => process.exit(code));
