// Lint rules from STYLE.md: no floating promises, no Node built-ins in deterministic workflow code,
// and the fence that keeps imports pointing down (see `fence` below).
const tseslint = require('typescript-eslint');
const { builtinModules } = require('node:module');

/** How deep a source file may sit below its top-level folder (core/a.ts is 1, core/a/b.ts is 2, …). */
const DEPTHS = [1, 2, 3, 4, 5, 6];

/**
 * Forbids files under `folder` to import from the top-level folders `targets`, at any depth:
 * a file N folders deep reaches the repository root with exactly N `../`, so the pattern is
 * exact (a sibling folder of the same name deeper down is not caught by mistake).
 */
function fence(folder, targets, message, { typeImportsAllowed = false } = {}) {
  // The TypeScript rule knows `import type`; a separate rule name also leaves the workflows' built-in list alone.
  const rule = typeImportsAllowed ? '@typescript-eslint/no-restricted-imports' : 'no-restricted-imports';
  return DEPTHS.map((depth) => ({
    files: [`${folder}/${'*/'.repeat(depth - 1)}*.ts`],
    rules: {
      [rule]: [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./){${depth}}(${targets.join('|')})(/|$)`,
              message,
              ...(typeImportsAllowed ? { allowTypeImports: true } : {}),
            },
          ],
        },
      ],
    },
  }));
}

const workflowBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({
  name,
  message: 'Workflow code runs in the deterministic sandbox: no Node built-ins. Do I/O in an activity.',
}));

module.exports = tseslint.config(
  // console/api/openapi.gen.ts is openapi-typescript's output (npm run openapi:types): its style is the generator's.
  { ignores: ['dist/**', 'node_modules/**', '.tools/**', '.quire/**', 'infra/example-docs/**', 'eval/**/*.md', '**/*.js', 'console/api/openapi.gen.ts'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: workflowBuiltins }] },
  },
  // The fence: imports never point up or sideways across process boundaries.
  ...fence(
    'core',
    ['api', 'workflows', 'activities', 'worker', 'infra'],
    'core/ is what every process shares: it imports nothing from api/, workflows/, activities/, worker/ or infra/.',
  ),
  ...fence(
    'api',
    ['activities', 'worker', 'workflows'],
    'api/ never loads worker, workflow or activity code: start and message workflows through core/contracts.',
  ),
  ...fence(
    'workflows',
    ['activities'],
    'Workflows import activities as types only (import type) and call them through proxyActivities.',
    { typeImportsAllowed: true },
  ),
  ...fence('activities', ['api'], 'activities/ and api/ never import each other: shared code lives in core/.'),
);
