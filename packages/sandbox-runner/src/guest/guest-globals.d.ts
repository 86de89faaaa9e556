// Declarations for the guest programs (checked JavaScript, run verbatim as text; see tsconfig.node.json).

// The values buildChildBootstrap writes into the bootstrap's text in place of these names (build-child-bootstrap.ts);
// __CLOSE_FDS__ is written at spawn time by the child-process host.
declare const __LIMITS__: { timeoutMs: number; heapMb: number; maxCalls: number; inFlightCalls: number; logLines: number; logLineBytes: number; outputBytes: number; resultBytes: number };
declare const __ESCAPED__: boolean;
declare const __RUNTIME_SOURCE__: string;
declare const __CHANNEL_FD__: number;
declare const __CLOSE_FDS__: number[];
declare const __REALM_LIMITS__: { logLineBytes: number; resultBytes: number; inFlightCalls: number; maxMembers: number; maxDepth: number };
declare const __MEASURE_JSON_TEXT__: (text: string | Uint8Array, maxMembers: number, maxDepth: number) => number;
declare const __LOWER_THREAD_PRIORITY__: (os: typeof import('node:os'), increment: number) => void;
declare const __NICE_INCREMENT__: number;

/** What the bootstrap replaces of node:module's resolution (internal members, present on the Node it checks). */
interface ModuleInternals {
  // Node calls it with a varying argument list; the bootstrap forwards `arguments` as they came.
  _resolveFilename: ((...args: unknown[]) => string) & { apply(thisArg: unknown, args: IArguments): string };
  _findPath: (...args: unknown[]) => unknown;
  registerHooks?: (hooks: { resolve: (specifier: string, context: unknown, nextResolve: (specifier: string, context: unknown) => unknown) => unknown }) => unknown;
  findPackageJSON?: (...args: unknown[]) => unknown;
  globalPaths: string[];
}

// Modules the bootstrap requires only to prove they are absent (--no-experimental-sqlite, --no-experimental-ffi).
declare module 'node:sqlite';
declare module 'node:ffi';

// The part of WebAssembly's JavaScript interface the QuickJS worker uses (Node has it; the ES lib does not).
declare namespace WebAssembly {
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
  }
}
