// The long-lived host: one catalog, the MCP servers it keeps running, the plugins it loaded, the policy cache, and
// `HostCore`, what a session reads from it. Sessions and the package's front door import this index, never its
// files; nothing here knows a session.
export type { ArgsValidator } from './create-args-validator.js';
export type { GoneTool, HostCore, HostEvent, HostRoute } from './host-core.js';
export type { CreateToolSearchHostOptions, McpClientOptions, ToolSearchHostSources } from './host-options.js';
export type { HostMcpServer, HostServerStatus, HostStatus } from './host-status.js';
export type { PluginSpec } from './load-plugin-tools.js';
export type { PolicyByContent, PolicyCacheStatus } from './policy-cache.js';
export { startHost } from './start-host.js';
export type { StartedHost } from './start-host.js';
