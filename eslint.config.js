import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        Buffer: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        performance: 'readonly',
        queueMicrotask: 'readonly',
        structuredClone: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // No deep imports across packages: other packages are reached through their public roots only.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@tool-search/[a-z-]+/(src|dist|internal)(/|$)',
              message: 'Import the package root or a declared subpath, not its files.',
            },
            {
              regex: '^(\\.\\./)+(catalog|sandbox-runner|policy|modes|gateway-adapter|mcp-server|tool-search|e2e)/',
              message: 'Import another package through its name, not a relative path.',
            },
            {
              regex: '^(\\.\\./){2,}packages/',
              message: 'Import another package through its name, not a relative path.',
            },
          ],
        },
      ],
    },
  },
  {
    // Package sources log through pino, never the console.
    files: ['packages/*/src/**/*.ts'],
    ignores: ['packages/*/src/**/*.test.ts', 'packages/e2e/**'],
    rules: { 'no-console': 'error' },
  },
);
