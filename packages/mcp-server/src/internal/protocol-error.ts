// A JSON-RPC error to throw from a request handler: the SDK answers with this `code` and `message` as they are
// (an `McpError` would prefix its message with "MCP error <code>:", which the client then prefixes again).

/** MCP's code for a resource that does not exist (or that this session may not read). */
export const RESOURCE_NOT_FOUND = -32002;

/** An error the SDK sends as `{ code, message, data? }`. */
export function protocolError(code: number, message: string, data?: unknown): Error & { code: number; data?: unknown } {
  return Object.assign(new Error(message), { code, ...(data === undefined ? {} : { data }) });
}
