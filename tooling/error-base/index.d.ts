/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package and every copy of it,
 * its value the class name. A guard reads it instead of `instanceof`, so an error from another copy is recognised.
 */
export declare const TOOL_SEARCH_ERROR_BRAND: unique symbol;

/** What every Tool Search error takes besides its code and message. */
export interface ToolSearchErrorBaseOptions {
  cause?: unknown;
  /** Where in the input the problem is (`tools[3].owner`, `limits.timeoutMs`), when known. */
  path?: string;
}

/**
 * The base of every Tool Search error class: a `name` that is the class name (also the value of the brand), a
 * `code` from the class's closed union, a `path` where the problem is one place in the input, and an ES2022
 * `cause` only when one is given.
 */
export declare class ToolSearchErrorBase<Code extends string> extends Error {
  /** Why the error was thrown, from the class's closed union of codes. */
  readonly code: Code;
  /** Where in the input the problem is (`tools[3].owner`, `limits.timeoutMs`), when known. */
  readonly path: string | undefined;
  /** `name` is the class name: the error's `name` and its brand. */
  constructor(name: string, code: Code, message: string, options?: ToolSearchErrorBaseOptions);
}

/** The brand of `value` (the class name of a Tool Search error, from any copy of any package), or undefined. */
export declare function readErrorBrand(value: unknown): string | undefined;

/** A guard for the error class called `name`: true for a value carrying that brand, from any copy of the package. */
export declare function createErrorGuard<T extends Error>(name: string): (value: unknown) => value is T;
