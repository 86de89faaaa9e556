import type { OpenSessionOptions, ToolSearchSession } from '@tool-search/gateway-adapter';

/** Every call the local tools ran, in order. */
export declare const executed: Array<{ name: string; args: Record<string, unknown> }>;
/** The denied tool: every session of the fixture host denies it. */
export declare const DENIED_ID = 'openclaw:core:exec_shell';
/** The tool behind an approval: the fixture's approval provider refuses every call. */
export declare const APPROVAL_ID = 'openclaw:core:delete_file';
/** Every approval the fixture's provider was asked for (it refuses them all). */
export declare const approvalsAsked: string[];
/** Registers a test file's fixture host and returns `open`, whose sessions are closed after each test. */
export declare function useFixtureSessions(): (config: unknown, options?: Partial<OpenSessionOptions>) => Promise<ToolSearchSession>;
