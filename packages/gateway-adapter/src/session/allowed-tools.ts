// The allowed-tools registry of one session: every route (code bridge, tool_call, declared names, hydrated
// names, pins) resolves a tool through it. Catalogued tools come from the session's policy view of the host's
// catalog, client tools from the session itself; anything else is unknown, and a denied tool is exactly that.
import { isTrustedByDefault, parseToolId, toolId, type CatalogView, type DescribeResult, type JsonSchema, type ToolInput, type ToolSource } from '@tool-search/catalog';
import type { ModelError } from '@tool-search/modes';
import type { Policy, PolicyContext, PolicyTool } from '@tool-search/policy';
import type { Logger } from 'pino';
import { GatewayAdapterError } from '../errors.js';
import type { ClientTool } from '../executable-tool.js';
import type { ToolRef } from '../tool-call-outcome.js';
import type { HostCore, HostRoute } from '../host/index.js';

/** One tool this session may call, as the call pipeline needs it. */
export interface AllowedTool {
  ref: ToolRef;
  kind: 'local' | 'mcp' | 'client';
  inputSchema: JsonSchema | undefined;
  trusted: boolean;
  policyTool: PolicyTool;
  /** How it runs; undefined for a client tool (the caller runs it). */
  route: HostRoute | undefined;
}

export interface AllowedTools {
  readonly view: CatalogView;
  /** The tool behind an exact id, when this session may call it now. */
  get(id: string): AllowedTool | undefined;
  /** Why an allowed tool is not there now (its server is down, it was removed); undefined otherwise. */
  unavailable(id: string): ModelError | undefined;
  /** An exact id (present or unavailable), else a unique allowed name, else the catalog's miss. */
  resolve(idOrName: string): { id: string } | { miss: DescribeResult & { found: false } };
  /** Does the policy admit this tool for this session? */
  admits(tool: PolicyTool): boolean;
  clientInputs(): ToolInput[];
  /** Pinned tools that are in the view now. */
  pinnedInputs(): ToolInput[];
}

/** Builds the registry; invalid client tools or duplicate client ids throw at session open. */
export function createAllowedTools(options: {
  host: HostCore;
  view: CatalogView;
  policy: Policy;
  context: PolicyContext;
  client: readonly ClientTool[];
  visible: readonly string[];
  log: Logger;
}): AllowedTools {
  const { host, view, policy, context } = options;
  const admits = (tool: PolicyTool) => policy.check(tool, context).allowed;
  const clients = clientTools(options.client, admits);

  const get = (id: string): AllowedTool | undefined => {
    const client = clients.get(id);
    if (client) return client;
    const descriptor = view.get(id);
    const route = descriptor === undefined ? undefined : host.route(id);
    if (descriptor === undefined || route === undefined) return undefined;
    return {
      ref: { id, name: descriptor.name, source: descriptor.source, owner: descriptor.owner },
      kind: route.kind === 'local' ? 'local' : 'mcp',
      inputSchema: descriptor.inputSchema,
      trusted: descriptor.trusted,
      policyTool: host.policyTool(descriptor),
      route,
    };
  };
  const unavailable = (id: string): ModelError | undefined => {
    if (view.get(id) !== undefined) return undefined;
    const gone = host.gone(id);
    if (gone !== undefined) return admits(gone.tool) ? gone.reason : undefined;
    // A configured server that is down (or never started): any id under it, if policy would allow it, and only
    // when this session could see the server before it went down (one of the tools it had listed is admitted).
    // A server whose every tool this session is refused answers as an unknown one, down or up: no name, no stderr.
    const parsed = parseToolId(id);
    if (parsed?.source !== 'mcp') return undefined;
    const down = host.serverDown(parsed.owner);
    if (down === undefined || !admits({ id, name: parsed.name, source: 'mcp', owner: parsed.owner, ownerOnly: false })) return undefined;
    const listed = host.toolsOfDownServer(parsed.owner);
    return listed === undefined || listed.some(admits) ? { kind: 'server_not_ready', server: parsed.owner, ...down } : undefined;
  };

  // Pins a session asks for (`visible`) are resolved once, at open; pins the servers ask for (config `visible`, and
  // `_meta` always-load of trusted servers) are ids read each time, so a server that starts later pins its tools too.
  // Either counts only while the tool is in this session's view: pinning never widens policy.
  const sessionPins: string[] = [];
  for (const wanted of options.visible) {
    const described = view.get(wanted) !== undefined ? wanted : view.describe(wanted);
    const id = typeof described === 'string' ? described : described.found ? described.tool.id : undefined;
    // Unknown, ambiguous or denied names are dropped.
    if (id !== undefined && !sessionPins.includes(id)) sessionPins.push(id);
    else options.log.debug({ visible: wanted.slice(0, 200) }, 'visible tool not pinned');
  }

  return {
    view,
    get,
    unavailable,
    resolve(idOrName) {
      if (get(idOrName) !== undefined || unavailable(idOrName) !== undefined) return { id: idOrName };
      const described = view.describe(idOrName);
      return described.found ? { id: described.tool.id } : { miss: described };
    },
    admits,
    clientInputs: () => [...clients.values()].map((client) => client.input),
    pinnedInputs: () =>
      [...new Set([...host.pinnedByServers(), ...sessionPins])].flatMap((id) => {
        const descriptor = view.get(id);
        return descriptor === undefined ? [] : [{ name: descriptor.name, source: descriptor.source, owner: descriptor.owner }];
      }),
  };
}

/** The session's client tools the policy admits, by id; a duplicate id is an error naming its place. */
function clientTools(client: readonly ClientTool[], admits: (tool: PolicyTool) => boolean): Map<string, AllowedTool & { input: ToolInput }> {
  const clients = new Map<string, AllowedTool & { input: ToolInput }>();
  const declared = new Set<string>();
  client.forEach((tool, index) => {
    const input: ToolInput = { name: tool.name, source: 'client', owner: tool.owner ?? 'client' };
    if (tool.description !== undefined) input.description = tool.description;
    if (tool.inputSchema !== undefined) input.inputSchema = tool.inputSchema;
    const id = toolId('client', input.owner, input.name);
    if (declared.has(id)) throw new GatewayAdapterError('invalid_options', `Duplicate tool id ${id} (client[${index}])`, { path: `client[${index}]` });
    declared.add(id);
    const trusted = isTrustedByDefault('client');
    const policyTool: PolicyTool = { id, name: input.name, source: 'client', owner: input.owner, ownerOnly: tool.ownerOnly === true, trusted };
    // A client tool outside policy is never declared or callable, like any other tool.
    if (!admits(policyTool)) return;
    const ref = { id, name: input.name, source: 'client' as ToolSource, owner: input.owner };
    clients.set(id, { ref, kind: 'client', inputSchema: input.inputSchema, trusted, policyTool, route: undefined, input });
  });
  return clients;
}
