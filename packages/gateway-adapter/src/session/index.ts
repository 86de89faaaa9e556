// One run's session over a host: its policy view of the catalog, the tools it may call, the control routes of its
// mode, the call pipeline, its surface, its log and telemetry. The package's front door imports this index, never
// its files; the session reads its host through `HostCore` (host/).
export { openToolSearchSession } from './open-tool-search-session.js';
export type { OpenSessionOptions } from './open-session-options.js';
