import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// No deep imports across packages: other packages are reached through their public roots only.
const CROSS_PACKAGE_IMPORTS = [
  {
    regex: '^@tool-search/[a-z-]+/(src|dist|internal)(/|$)',
    message: 'Import the package root or a declared subpath, not its files.',
  },
  {
    regex: '^(\\.\\./)+(catalog|sandbox-runner|policy|modes|gateway-adapter|mcp-server|redis-store|tool-search|e2e)/',
    message: 'Import another package through its name, not a relative path.',
  },
  {
    regex: '^(\\.\\./){2,}packages/',
    message: 'Import another package through its name, not a relative path.',
  },
];

/** gateway-adapter's rooms (folders of src/), highest first: a room imports only the rooms after it. */
const GATEWAY_ADAPTER_ROOMS = ['session', 'host', 'mcp-client', 'shared'];

/**
 * The import patterns of a gateway-adapter file: a room is entered through its index only; a file of `room` imports
 * none of the rooms above it (`above`), nor the package's front door.
 */
function gatewayAdapterRoomImports(room, above = []) {
  const patterns = [
    ...CROSS_PACKAGE_IMPORTS,
    {
      regex: `^(\\.{1,2}/)+(src/)?(${GATEWAY_ADAPTER_ROOMS.join('|')})/(?!index\\.js$)`,
      message: 'Import a gateway-adapter room (session/, host/, mcp-client/, shared/) through its index.js, not its files.',
    },
  ];
  if (room === undefined) return patterns;
  if (above.length > 0) {
    patterns.push({
      regex: `^\\.\\./(${above.join('|')})/`,
      message: `Imports run session -> host -> mcp-client -> shared: ${room}/ may not import ${above.join('/ or ')}/.`,
    });
  }
  patterns.push({
    regex: '^\\.\\./(index|create-tool-search-host|create-tool-search-session|startup)\\.js$',
    message: `The package's front door (index, createToolSearchHost, createToolSearchSession, startup) imports ${room}/, not the other way round.`,
  });
  return patterns;
}

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
      'no-restricted-imports': ['error', { patterns: CROSS_PACKAGE_IMPORTS }],
    },
  },
  // gateway-adapter's rooms: the sessions, the host, the MCP client and the helpers they share each have one face,
  // their index.ts, and imports run one way: session -> host -> mcp-client -> shared (each may also import the
  // package's contract files at src/, never its front door). src/startup.ts names two MCP client modules, so that
  // loading it from source does not load the whole client.
  {
    files: ['packages/gateway-adapter/**/*.ts'],
    ignores: ['packages/gateway-adapter/src/startup.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: gatewayAdapterRoomImports() }] },
  },
  ...GATEWAY_ADAPTER_ROOMS.map((room, index) => ({
    files: [`packages/gateway-adapter/src/${room}/**/*.ts`],
    ignores: ['packages/gateway-adapter/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: gatewayAdapterRoomImports(room, GATEWAY_ADAPTER_ROOMS.slice(0, index)) }] },
  })),
  {
    // No file over 300 lines and no function over 80 in gateway-adapter's source (tests excepted).
    files: ['packages/gateway-adapter/src/**/*.ts'],
    ignores: ['packages/gateway-adapter/src/**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 300 }], 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    // Typed rules: a promise is awaited, returned or explicitly `void`ed; never passed where a callback's result
    // is ignored. Every file is checked in the workspace's one program (the root tsconfig.json, the one
    // `pnpm typecheck` checks): a file outside it is a parsing error here, so nothing is linted unchecked.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // Package sources log through pino, never the console.
    files: ['packages/*/src/**/*.ts'],
    ignores: ['packages/*/src/**/*.test.ts', 'packages/e2e/**'],
    rules: { 'no-console': 'error' },
  },
  {
    // mcp-server stays readable in pieces: no source file over 300 lines, no function over 80 (its tests aside).
    files: ['packages/mcp-server/src/**/*.ts'],
    ignores: ['packages/mcp-server/src/**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 300 }], 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    // sandbox-runner's guest programs: checked JavaScript run as text (src/guest/tsconfig.*.json type-checks them).
    // The worker programs and the child's bootstrap are CommonJS scripts on Node; the bootstrap's placeholders
    // are written in by buildChildBootstrap.
    files: ['packages/sandbox-runner/src/guest/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        SharedArrayBuffer: 'readonly',
        Atomics: 'readonly',
        WebAssembly: 'readonly',
        __LIMITS__: 'readonly',
        __ESCAPED__: 'readonly',
        __RUNTIME_SOURCE__: 'readonly',
        __CHANNEL_FD__: 'readonly',
        __CLOSE_FDS__: 'readonly',
        __REALM_LIMITS__: 'readonly',
        __MEASURE_JSON_TEXT__: 'readonly',
        __LOWER_THREAD_PRIORITY__: 'readonly',
        __NICE_INCREMENT__: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The console page's script: checked JavaScript run as text in a browser, as a module script
    // (src/cli/console/page/tsconfig.json type-checks it). Browser globals only, no Node.
    files: ['packages/tool-search/src/cli/console/page/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: {
        document: 'readonly',
        location: 'readonly',
        history: 'readonly',
        sessionStorage: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        Blob: 'readonly',
        Node: 'readonly',
        HTMLElement: 'readonly',
        Event: 'readonly',
      },
    },
  },
  {
    // The realm runtime runs inside the body's realm: ECMAScript built-ins only (no Node globals at all).
    files: ['packages/sandbox-runner/src/guest/realm-runtime.js'],
    languageOptions: { sourceType: 'script', globals: {} },
    rules: {
      // The file is one function expression: its value is the script's completion value.
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
);
