// Lint rules from STYLE.md: no floating promises, and no Node built-ins in deterministic workflow code.
const tseslint = require('typescript-eslint');
const { builtinModules } = require('node:module');

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tools/**', '.quire/**', 'infra/example-docs/**', 'eval/**/*.md', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({
            name,
            message: 'Workflow code runs in the deterministic sandbox: no Node built-ins. Do I/O in an activity.',
          })),
        },
      ],
    },
  },
);
