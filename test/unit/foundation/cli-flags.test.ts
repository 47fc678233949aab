import assert from 'node:assert/strict';
import { cli, COMMANDS } from '../../../infra/cli/main.js';
import { helpOf, parseFlags } from '../../../infra/cli/flags.js';

/** The flags a help text lists, as `--name`. */
function listedFlags(help: string): string[] {
  return [...help.matchAll(/^ {2}(--[a-z][a-z-]*)/gm)].map((m) => m[1]!);
}

describe('every quire command: --help and the parser come from one definition', () => {
  for (const [name, command] of Object.entries(COMMANDS)) {
    it(`quire ${name}: each flag its --help lists is accepted, and --help lists every flag the parser accepts`, () => {
      const help = helpOf(name, command.spec);
      const listed = listedFlags(help);
      assert.ok(listed.includes('--help'), `quire ${name} --help lists --help`);
      const parsed = listed.filter((f) => f !== '--help');
      for (const flag of parsed) {
        const spec = command.spec.flags[flag.slice(2)];
        assert.ok(spec, `${flag} is defined`);
        const args = spec.type === 'string' ? [flag, 'x'] : [flag];
        const { values } = parseFlags(command.spec, args);
        assert.notEqual(values[flag.slice(2)], undefined, `quire ${name} reads ${flag}`);
      }
      assert.deepEqual(parsed.sort(), Object.keys(command.spec.flags).map((f) => `--${f}`).sort(), `quire ${name} --help lists every flag`);
      assert.throws(() => parseFlags(command.spec, ['--no-such-flag']), /--no-such-flag/, 'an unknown flag is refused by name');
    });
  }

  it('quire --help names every command', async () => {
    let printed = '';
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => ((printed += chunk), true)) as typeof process.stdout.write;
    try {
      assert.equal(await cli(['--help'], {}), 0);
    } finally {
      process.stdout.write = write;
    }
    for (const [name, command] of Object.entries(COMMANDS)) {
      assert.match(printed, new RegExp(`^ {2}${name}\\b`, 'm'), `quire --help lists ${name}`);
      for (const flag of Object.keys(command.spec.flags)) assert.ok(printed.includes(`--${flag}`), `quire --help lists ${name}'s --${flag}`);
    }
  });
});
