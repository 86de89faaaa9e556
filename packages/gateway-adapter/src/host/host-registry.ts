// The host's one catalog and the routes of its tools: local tools added once, MCP tools following their
// servers (listed, changed, gone, back). Sessions read it through policy views; nothing here knows a session.
import {
  createCatalog,
  isTrustedByDefault,
  MAX_DESCRIPTION_LENGTH,
  MAX_TITLE_LENGTH,
  SEARCH_LIMIT_CEILING,
  toolId,
  type Catalog,
  type CatalogView,
  type Embedder,
  type EmbeddingCache,
  type ToolDescriptor,
  type ToolInput,
  type ViewOptions,
} from '@tool-search/catalog';
import type { Thesaurus } from '@tool-search/catalog/wordnet';
import { CONTROL_TOOL_NAMES, type ModelError } from '@tool-search/modes';
import type { Policy, PolicyContext, PolicyTool } from '@tool-search/policy';
import type { Logger } from 'pino';
import type { McpServerConnection, McpToolDefinition } from '../mcp-client/index.js';
import { GatewayAdapterError } from '../errors.js';
import type { ExecutableTool } from '../executable-tool.js';
import type { GoneTool, HostEvent, HostRoute } from './host-core.js';

/** Views kept per policy object, most recently used last. */
const MAX_VIEWS_PER_POLICY = 64;

/** A local tool to catalogue: its entry, its owner gate, how it runs, and where it came from (for errors). */
export interface LocalTool {
  input: ToolInput;
  ownerOnly: boolean;
  tool: ExecutableTool;
  where: string;
}

/** The host's catalog over an empty start that reserves the control-tool names (modes owns them). */
export class HostRegistry {
  readonly catalog: Catalog;
  private readonly log: Logger;
  private readonly routes = new Map<string, HostRoute>();
  private readonly goneTools = new Map<string, GoneTool>();
  /** MCP ids per server, as last catalogued (so a server going down knows what it takes with it). */
  private readonly serverIds = new Map<string, Set<string>>();
  /** What a server that is down had listed when it went, for policy's eyes (see `toolsOfDownServer`). */
  private readonly downServerTools = new Map<string, PolicyTool[]>();
  private readonly listeners = new Set<(event: HostEvent) => void>();
  private readonly views = new WeakMap<Policy, Map<string, CatalogView>>();
  /** Servers whose config says `trusted`. */
  private readonly serverTrust = new Map<string, boolean>();
  /** Servers that got a synthesized `read_resource` tool. */
  private readonly resourceReaders = new Map<string, boolean>();
  /** Ids of trusted servers' tools whose `_meta` asks to be always loaded: pinned in every session that admits them. */
  private readonly alwaysLoaded = new Set<string>();
  private changes = 0;

  constructor(options: { logger: Logger; catalogLogger: Logger; embedder?: Embedder | undefined; embeddingCache?: EmbeddingCache | undefined; thesaurus?: Thesaurus | undefined }) {
    this.log = options.logger;
    this.catalog = createCatalog([], {
      logger: options.catalogLogger,
      maxSearchLimit: SEARCH_LIMIT_CEILING,
      reservedNames: CONTROL_TOOL_NAMES,
      embedder: options.embedder,
      embeddingCache: options.embeddingCache,
      ...(options.thesaurus === undefined ? {} : { thesaurus: options.thesaurus }),
    });
  }

  /** Bumped on every change of the catalog. */
  version(): number {
    return this.changes;
  }

  route(id: string): HostRoute | undefined {
    return this.routes.get(id);
  }

  /** Tools of one MCP server in the catalog now. */
  serverToolCount(server: string): number {
    return this.serverIds.get(server)?.size ?? 0;
  }

  gone(id: string): GoneTool | undefined {
    return this.goneTools.get(id);
  }

  /**
   * The tools a down server had listed when it went down; undefined when it never listed any (it never started,
   * or is up). A session that may see none of them must not learn the server is there (see `allowed-tools.ts`).
   */
  toolsOfDownServer(server: string): readonly PolicyTool[] | undefined {
    return this.downServerTools.get(server);
  }

  /** The policy's picture of a catalogued tool: owner gate, trust and annotations included. */
  policyTool(descriptor: ToolDescriptor): PolicyTool {
    return {
      id: descriptor.id,
      name: descriptor.name,
      source: descriptor.source,
      owner: descriptor.owner,
      ownerOnly: this.routes.get(descriptor.id)?.ownerOnly === true,
      trusted: descriptor.trusted,
      ...(descriptor.annotations === undefined ? {} : { annotations: descriptor.annotations }),
    };
  }

  /** Catalogues local tools; an invalid entry or a duplicate id is a `GatewayAdapterError` naming its place. */
  addLocal(tools: readonly LocalTool[]): void {
    const { added, rejected } = this.catalog.add(tools.map((tool) => tool.input));
    const invalid = rejected.find((entry) => entry.code !== 'reserved_name');
    if (invalid) {
      const where = tools[invalid.index]?.where ?? `tools[${invalid.index}]`;
      const message = invalid.code === 'duplicate_id' ? `Duplicate tool id ${invalid.id} (${where})` : `Invalid tool at ${where}: ${invalid.message}`;
      this.catalog.remove(added.map((descriptor) => descriptor.id));
      // The catalog's path is into the array it was given (`tools[3].owner`); the caller's names the entry's place.
      const field = invalid.path?.slice(`tools[${invalid.index}]`.length) ?? '';
      throw new GatewayAdapterError('invalid_options', message, { path: `${where}${field}` });
    }
    // A control-tool name is never catalogued, so it is never callable either: there is no route to it.
    for (const entry of rejected) this.log.warn({ toolId: entry.id, where: tools[entry.index]?.where }, 'tool with a control-tool name skipped');
    const byId = new Map(tools.map((tool) => [toolId(tool.input.source, tool.input.owner, tool.input.name), tool]));
    for (const descriptor of added) {
      const local = byId.get(descriptor.id) as LocalTool;
      this.routes.set(descriptor.id, { kind: 'local', ownerOnly: local.ownerOnly, tool: local.tool });
    }
    if (added.length > 0) this.changes += 1;
  }

  /**
   * A server connected (again): its tools join (with the server's trust, and a `read_resource` tool when it has
   * resources); tools it listed before but not now stay gone, saying so.
   */
  serverReady(server: string, connection: Pick<McpServerConnection, 'tools' | 'features' | 'config' | 'instructions' | 'serverInfo'>): void {
    this.downServerTools.delete(server);
    this.serverTrust.set(server, connection.config.trusted ?? isTrustedByDefault('mcp'));
    // What the server says of itself describes its tools: the catalog indexes it as low-weight context of each.
    // Its title and description (serverInfo) also give the server map's summary (the catalog's `describeServer`).
    this.catalog.setOwnerContext({ source: 'mcp', owner: server, text: ownerContextText(connection), title: connection.serverInfo?.title, description: connection.serverInfo?.description });
    const definitions = connection.tools();
    const readsResources = connection.features.resources && !definitions.some((definition) => definition.name === READ_RESOURCE_TOOL);
    this.resourceReaders.set(server, readsResources);
    const before = new Set(this.serverIds.get(server) ?? []);
    const added = this.addServerTools(server, readsResources ? [...definitions, readResourceDefinition(server)] : definitions);
    for (const descriptor of added) before.delete(descriptor.id);
    this.removeTools([...before], (id) => ({ kind: 'tool_unlisted', id, server }));
    this.emit({ type: 'server_up', server, tools: added.map((descriptor) => this.policyTool(descriptor)) });
  }

  serverChanged(server: string, change: { added: readonly McpToolDefinition[]; removed: readonly string[] }): void {
    // The server's own tools never replace or remove the synthesized resource reader.
    const own = (name: string) => !(name === READ_RESOURCE_TOOL && this.resourceReaders.get(server) === true);
    const removed = this.removeTools(
      change.removed.filter(own).map((name) => toolId('mcp', server, name)),
      (id) => ({ kind: 'tool_removed', id, server }),
    );
    const added = this.addServerTools(server, change.added.filter((definition) => own(definition.name)));
    this.emit({ type: 'tools_changed', server, added: added.map((descriptor) => this.policyTool(descriptor)), removed });
  }

  serverDown(server: string, reason: string): void {
    const tools = this.removeTools([...(this.serverIds.get(server) ?? [])], () => ({ kind: 'server_not_ready', server, state: 'unavailable', reason }));
    // A server down again before it came back (a failed restart) took nothing this time: keep what it had.
    if (tools.length > 0) this.downServerTools.set(server, tools);
    this.emit({ type: 'server_down', server, reason, tools });
  }

  /** A view for one policy and context; equal scope keys give equal verdicts, so such sessions share one. */
  view(policy: Policy, context: PolicyContext, limits: ViewOptions): CatalogView {
    const key = `${policy.scopeKey(context)}|${limits.searchDefaultLimit ?? ''}|${limits.maxSearchLimit ?? ''}`;
    let byScope = this.views.get(policy);
    if (byScope === undefined) {
      byScope = new Map();
      this.views.set(policy, byScope);
    }
    let view = byScope.get(key);
    if (view === undefined) {
      view = this.buildView(policy, context, limits);
      // Bounded per policy (a policy whose layers name every session would otherwise keep a view per session).
      if (byScope.size >= MAX_VIEWS_PER_POLICY) byScope.delete(byScope.keys().next().value as string);
    } else {
      byScope.delete(key);
    }
    byScope.set(key, view);
    return view;
  }

  /**
   * An uncached view for one policy and context. The view asks the policy about tools added later (it catches up
   * through the catalog's journal), so it keeps its own copy of the context: a caller changing its object after
   * the view was built changes nothing.
   */
  buildView(policy: Policy, context: PolicyContext, limits: ViewOptions): CatalogView {
    const fixed: PolicyContext = { ...context };
    return this.catalog.view((descriptor) => policy.check(this.policyTool(descriptor), fixed).allowed, limits);
  }

  /** Ids of catalogued tools of trusted servers whose `_meta` asks to be always loaded. */
  alwaysLoadedIds(): string[] {
    return [...this.alwaysLoaded];
  }

  subscribe(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: HostEvent): void {
    this.changes += 1;
    for (const listener of this.listeners) listener(event);
  }

  /** Catalogues one server's tools; one malformed tool (a bad name, a control-tool name) never stops the others. */
  private addServerTools(server: string, definitions: readonly McpToolDefinition[]): ToolDescriptor[] {
    const trusted = this.serverTrust.get(server) === true;
    const { added, rejected } = this.catalog.add(definitions.map((definition) => mcpToolInput(server, definition, trusted)));
    // An untrusted server cannot make its tools visible in every session by asking.
    const askAlwaysLoad = new Set(trusted ? definitions.filter((definition) => definition.alwaysLoad === true).map((definition) => definition.name) : []);
    for (const entry of rejected) this.log.warn({ server, code: entry.code, err: entry.message }, 'mcp tool rejected by the catalog');
    const ids = this.serverIds.get(server) ?? new Set<string>();
    this.serverIds.set(server, ids);
    for (const descriptor of added) {
      const readsResources = descriptor.name === READ_RESOURCE_TOOL && this.resourceReaders.get(server) === true;
      this.routes.set(descriptor.id, readsResources ? { kind: 'mcp-resource', ownerOnly: false, server } : { kind: 'mcp', ownerOnly: false, server, toolName: descriptor.name });
      this.goneTools.delete(descriptor.id);
      ids.add(descriptor.id);
      if (askAlwaysLoad.has(descriptor.name)) this.alwaysLoaded.add(descriptor.id);
    }
    return added;
  }

  /** Takes ids out of the catalog and the routes, remembering why they went. */
  private removeTools(ids: readonly string[], reason: (id: string) => ModelError): PolicyTool[] {
    const removed: PolicyTool[] = [];
    for (const id of ids) {
      const descriptor = this.catalog.get(id);
      if (descriptor === undefined) continue;
      const tool = this.policyTool(descriptor);
      removed.push(tool);
      this.goneTools.set(id, { reason: reason(id), tool });
      this.routes.delete(id);
      this.alwaysLoaded.delete(id);
      this.serverIds.get(descriptor.owner)?.delete(id);
    }
    this.catalog.remove(removed.map((tool) => tool.id));
    return removed;
  }
}

/** The name of the tool a server with resources gets, so a model can read a `resource_link` a tool returned. */
export const READ_RESOURCE_TOOL = 'read_resource';

/** The synthesized resource reader of one server: a catalog tool like any other (searchable, gated by policy). */
function readResourceDefinition(server: string): McpToolDefinition {
  return {
    name: READ_RESOURCE_TOOL,
    title: `Read a resource of ${server}`,
    description: `Read a resource of MCP server "${server}" by its URI, for example a resource link one of its tools returned. Returns the resource's contents (text, or an attachment for binary data).`,
    inputSchema: { type: 'object', properties: { uri: { type: 'string', description: 'The resource URI.' } }, required: ['uri'], additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

/** The catalog entry of one MCP tool (the whole description: the catalog caps what it shows). */
function mcpToolInput(server: string, definition: McpToolDefinition, trusted: boolean): ToolInput {
  const input: ToolInput = {
    name: definition.name,
    source: 'mcp',
    owner: server,
    description: definition.description.slice(0, MAX_DESCRIPTION_LENGTH),
    inputSchema: definition.inputSchema,
    trusted,
  };
  if (definition.title !== undefined) input.title = definition.title.slice(0, MAX_TITLE_LENGTH);
  if (definition.outputSchema !== undefined) input.outputSchema = definition.outputSchema;
  if (definition.annotations !== undefined) input.annotations = pickAnnotations(definition.annotations);
  return input;
}

/** The four boolean hints the catalog keeps (a server may send more, or malformed ones). */
function pickAnnotations(annotations: McpToolDefinition['annotations'] & object): NonNullable<ToolInput['annotations']> {
  const picked: NonNullable<ToolInput['annotations']> = {};
  for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
    if (typeof annotations[hint] === 'boolean') picked[hint] = annotations[hint];
  }
  return picked;
}

/**
 * A server's context text (searchable words of its tools): its `instructions`, then its title. (Its own
 * `serverInfo.name`, such as "memory-server", is left out: it only repeats the configured name.) The map's summary
 * reads the title and description as such (`setOwnerContext`'s fields).
 */
function ownerContextText(connection: Pick<McpServerConnection, 'instructions' | 'serverInfo'>): string {
  const parts = [connection.instructions?.trim(), connection.serverInfo?.title?.trim()];
  return parts.filter((part): part is string => part !== undefined && part !== '').join('\n\n');
}
