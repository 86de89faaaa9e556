import type { McpServer } from '@modelcontextprotocol/server';

/** Builds a fresh 2026-07-28 fixture server (one per HTTP request, one per stdio connection). */
export declare function createModernServer(): McpServer;
