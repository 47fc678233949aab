import path from 'node:path';

/**
 * The node arguments that run a script beside this one the way this one runs: compiled
 * (`dist/benches`, as `npm run bench:*` builds them, the code production runs) or, when a bench is
 * started from its TypeScript source, through tsx.
 */
export function siblingScript(name: string): string[] {
  const compiled = __filename.endsWith('.js');
  const file = path.join(__dirname, `${name}.${compiled ? 'js' : 'ts'}`);
  return compiled ? [file] : ['--import', 'tsx', file];
}

/**
 * The node arguments that run a bench server compiled (`dist/benches`, which the `bench:*` scripts
 * build first), whether this process runs compiled or from its TypeScript source: a server whose
 * cost a bench measures runs the code production runs.
 */
export function compiledScript(name: string): string[] {
  const compiled = __filename.endsWith('.js');
  return [compiled ? path.join(__dirname, `${name}.js`) : path.join(__dirname, '..', 'dist', 'benches', 'bench', `${name}.js`)];
}
