import type { ExecutableTool } from '@tool-search/gateway-adapter';

/** Every tool run, in order. */
export declare const ran: string[];
/** The README examples' host tools: `get_weather` and `exec_shell` (the one the examples' policy denies). */
export declare const coreTools: ExecutableTool[];
