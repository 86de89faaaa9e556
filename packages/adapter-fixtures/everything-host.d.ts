import type { ToolSearchHost, ToolSearchSession } from '@tool-search/gateway-adapter';

/** Every call the local tools ran, in order (a test file clears it after each test). */
export declare const executed: Array<{ name: string; args: Record<string, unknown> }>;
/** The tool the adapters' fixture sessions deny. */
export declare const DENIED_ID = 'openclaw:core:exec_shell';
/** The image tool of `server-everything`. */
export declare const IMAGE_TOOL = 'get-tiny-image';
/** The host: the local tools (`get_weather`, `create_event`, `exec_shell`) and `server-everything` (echo and the image tool) over stdio. */
export declare function createEverythingHost(): Promise<ToolSearchHost>;
/**
 * Registers a test file's host (made by `createHost` before its tests, closed after them) and returns `open`,
 * whose sessions (opened by `openSession(host, config, options)`) are closed after each test, `executed` cleared.
 */
export declare function useHostSessions<O>(
  createHost: () => Promise<ToolSearchHost>,
  openSession: (host: ToolSearchHost, config: unknown, options: O | undefined) => Promise<ToolSearchSession>,
): (config: unknown, options?: O) => Promise<ToolSearchSession>;
