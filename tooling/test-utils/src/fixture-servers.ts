// Paths of the fixture MCP servers in `servers/`, for tests and benches that spawn one themselves.
import { fileURLToPath } from 'node:url';

const server = (file: string) => fileURLToPath(new URL(`../servers/${file}`, import.meta.url));

/** Replays one source of a recorded tool list (a benchmark JSONL file) as a stdio MCP server (see its header). */
export const REPLAY_MCP_SERVER_PATH = server('replay-mcp-server.mjs');
/** A 2026-07-28 (SDK v2) stdio server; its module also exports `createModernServer` for in-process use. */
export const MODERN_MCP_SERVER_PATH = server('modern-mcp-server.mjs');
/** A 2025-era stdio server that exits on the 2026-07-28 probe, as Rust-SDK servers do. */
export const EXIT_ON_PROBE_SERVER_PATH = server('exit-on-probe-server.mjs');
/** A stdio server that offers prompts and nothing else. */
export const PROMPTS_ONLY_SERVER_PATH = server('mcp-prompts-only-server.mjs');
/** A 2025-era stdio server that asks its client things: within a call, and (ASKING_EVERY_MS) on a timer outside every call. */
export const ASKING_MCP_SERVER_PATH = server('asking-mcp-server.mjs');
