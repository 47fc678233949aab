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

  it('an argument beyond what a usage line takes is refused by name; every usage form as written is accepted', () => {
    const refused: Array<[string, string[], string]> = [
      ['orgs', ['add', 'x', 'y', 'z'], 'y'],
      ['orgs', ['list', 'extra'], 'extra'],
      ['projects', ['update', 'acme/docs', 'stray'], 'stray'],
      ['keys', ['revoke', 'key_1', 'key_2'], 'key_2'],
      ['webhooks', ['list', 'docs', 'more'], 'more'],
      ['automations', ['pause', 'docs', 'a1', 'a2'], 'a2'],
      ['index', ['site', 'other'], 'other'],
      ['migrate', ['now'], 'now'],
    ];
    for (const [name, args, extra] of refused) {
      assert.throws(() => parseFlags(COMMANDS[name]!.spec, args), new RegExp(`unexpected argument '${extra}'`), `quire ${name} ${args.join(' ')}`);
    }
    const accepted: Array<[string, string[]]> = [
      ['orgs', ['add', 'x']],
      ['orgs', ['list']],
      ['keys', ['revoke', 'key_1']],
      ['webhooks', ['list']],
      ['webhooks', ['list', 'docs']],
      ['webhooks', ['remove', 'docs', 'wh_1']],
      ['automations', ['trigger', 'docs', 'a1']],
      ['index', ['site']],
      ['analytics', ['site', '--since', '7d']],
      ['migrate', []],
    ];
    for (const [name, args] of accepted) assert.doesNotThrow(() => parseFlags(COMMANDS[name]!.spec, args), `quire ${name} ${args.join(' ')}`);
  });

  it('webhooks, automations, index and analytics take a project or domain by its id alone, and say so when given ORG/ID (as the lists print it)', async () => {
    const calls: Array<[string[], RegExp]> = [
      [['webhooks', 'add', 'acme/docs', 'https://hooks.example.com/x'], /PROJECT is the project's id alone \(such as 'docs'\), not ORG\/PROJECT/],
      [['automations', 'list', 'acme/docs'], /PROJECT is the project's id alone \(such as 'docs'\), not ORG\/PROJECT/],
      [['index', 'acme/docs'], /DOMAIN is the domain's id alone \(such as 'docs'\), not ORG\/DOMAIN/],
      [['analytics', 'acme/docs', '--since', '7d'], /DOMAIN is the domain's id alone \(such as 'docs'\), not ORG\/DOMAIN/],
    ];
    for (const [args, message] of calls) {
      let printed = '';
      const write = process.stderr.write.bind(process.stderr);
      process.stderr.write = ((chunk: string) => ((printed += chunk), true)) as typeof process.stderr.write;
      try {
        assert.equal(await cli(args, {}), 2, args.join(' '));
      } finally {
        process.stderr.write = write;
      }
      assert.match(printed, message, args.join(' '));
    }
  });

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
