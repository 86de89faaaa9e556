// Resources and resource templates of the upstream servers, for one MCP session: listed from every ready server
// the session may read (the policy's verdict on the server's `read_resource` tool), named per `upstream-names`,
// and each read routed to the one server it belongs to. A resource of a server the session may not read is
// answered exactly like one that does not exist.
import { ProtocolErrorCode as ErrorCode, type ReadResourceResult, type Resource, type ResourceTemplateType } from '@modelcontextprotocol/server';
import type { HostMcpServer, McpContentPart, McpResource, McpResourceTemplate } from '@tool-search/gateway-adapter';
import type { Logger } from 'pino';
import { protocolError, RESOURCE_NOT_FOUND } from './protocol-error.js';
import { matchUriTemplate } from './match-uri-template.js';
import { toResourceContents } from './to-sdk-results.js';
import { parseQualifiedUri, qualifyUri, SERVER_META_KEY, sharedKeys } from './upstream-names.js';

/** Most URIs remembered per session from tool results (resource links), oldest forgotten first. */
const MAX_REMEMBERED_URIS = 1_000;

export interface UpstreamResources {
  /** Each listed resource names its server in `_meta`. */
  list(): Promise<Resource[]>;
  templates(): Promise<ResourceTemplateType[]>;
  read(uri: string, signal: AbortSignal): Promise<ReadResourceResult>;
  /** The server a template URI (as in `completion/complete`'s `ref/resource`) belongs to, with its own template. */
  templateServer(uriTemplate: string): Promise<{ server: HostMcpServer; uriTemplate: string } | undefined>;
  /** Remembers the URIs in a tool result of `server`, so a resource link it returned reads from it. */
  noteResultParts(server: string, parts: readonly McpContentPart[]): void;
}

export function createUpstreamResources(options: {
  servers: () => HostMcpServer[];
  /** May this session read resources of the server? */
  allowed: (server: string) => boolean;
  log: Logger;
}): UpstreamResources {
  const readable = () => options.servers().filter((server) => server.state === 'ready' && options.allowed(server.name));
  const byName = (name: string) => readable().find((server) => server.name === name);
  const listings = createResourceListings(readable, options.log);

  return {
    async list() {
      const entries = await listings.listAll();
      const shared = sharedKeys(entries.map(({ server, resource }) => [server, resource.uri] as const));
      return entries.map(({ server, resource }) => ({
        ...resource,
        uri: shared.has(resource.uri) ? qualifyUri(server, resource.uri) : resource.uri,
        _meta: { [SERVER_META_KEY]: server },
      }));
    },
    async templates() {
      const entries = await listings.listTemplates();
      return entries.map(({ server, template }) => ({ ...template, _meta: { [SERVER_META_KEY]: server } }));
    },
    async read(uri, signal) {
      const qualified = parseQualifiedUri(uri);
      const target = qualified !== undefined ? { server: qualified.server } : await route(uri, listings, readable);
      const upstreamUri = qualified?.uri ?? uri;
      if ('candidates' in target) {
        const hint = target.candidates.length > 1 ? `; ${target.candidates.length} servers list it: read ${target.candidates.map((server) => qualifyUri(server, uri)).join(' or ')}` : '';
        throw protocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 500)}${hint}`, { uri });
      }
      const server = byName(target.server);
      if (server === undefined) throw protocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 500)}`, { uri });
      const read = await server.readResource(upstreamUri, { signal });
      if (!read.ok) {
        if (read.code === 'unsupported') throw protocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 500)}`, { uri });
        throw protocolError(ErrorCode.InternalError, read.message);
      }
      return { contents: read.parts.flatMap((part) => (part.type === 'resource' ? [toResourceContents(part)] : [])) };
    },
    async templateServer(uriTemplate) {
      const qualified = parseQualifiedUri(uriTemplate);
      if (qualified !== undefined) {
        const server = byName(qualified.server);
        return server === undefined ? undefined : { server, uriTemplate: qualified.uri };
      }
      if (!listings.templates().some((entry) => entry.uriTemplate === uriTemplate)) await listings.listTemplates();
      const owners = [...new Set(listings.templates().filter((entry) => entry.uriTemplate === uriTemplate).map((entry) => entry.server))];
      const server = owners.length === 1 ? byName(owners[0]!) : undefined;
      return server === undefined ? undefined : { server, uriTemplate };
    },
    noteResultParts: listings.noteResultParts,
  };
}

/** What the session's last listings said (which servers list a URI, which templates each has, which offer resources), and the URIs tool results named. */
interface ResourceListings {
  listAll(): Promise<Array<{ server: string; resource: McpResource }>>;
  listTemplates(): Promise<Array<{ server: string; template: McpResourceTemplate }>>;
  /** The servers that listed `uri` in the last listing. */
  listedBy(uri: string): string[] | undefined;
  templates(): ReadonlyArray<{ server: string; uriTemplate: string }>;
  /** Whether the server's last listing answered (it offers resources). */
  offers(server: string): boolean;
  /** The server whose tool result last named `uri`. */
  fromResult(uri: string): string | undefined;
  noteResultParts: UpstreamResources['noteResultParts'];
}

function createResourceListings(readable: () => HostMcpServer[], log: Logger): ResourceListings {
  /** URI → servers that listed it, from the last listing. */
  let listedBy = new Map<string, string[]>();
  let templatesBy: Array<{ server: string; uriTemplate: string }> = [];
  let offering = new Set<string>();
  const fromResults = new Map<string, string>();
  return {
    async listAll() {
      const lists = await Promise.all(readable().map(async (server) => ({ server: server.name, listed: await server.listResources() })));
      const entries: Array<{ server: string; resource: McpResource }> = [];
      const answered = new Set<string>();
      for (const { server, listed } of lists) {
        if (!listed.ok) {
          if (listed.code !== 'unsupported') log.warn({ server, code: listed.code, reason: listed.message.slice(0, 300) }, 'listing resources failed');
          continue;
        }
        answered.add(server);
        for (const resource of listed.items) entries.push({ server, resource });
      }
      offering = answered;
      listedBy = new Map();
      for (const { server, resource } of entries) listedBy.set(resource.uri, [...(listedBy.get(resource.uri) ?? []), server]);
      return entries;
    },
    async listTemplates() {
      const lists = await Promise.all(readable().map(async (server) => ({ server: server.name, listed: await server.listResourceTemplates() })));
      const entries = lists.flatMap(({ server, listed }) => (listed.ok ? listed.items.map((template) => ({ server, template })) : []));
      templatesBy = entries.map(({ server, template }) => ({ server, uriTemplate: template.uriTemplate }));
      return entries;
    },
    listedBy: (uri) => listedBy.get(uri),
    templates: () => templatesBy,
    offers: (server) => offering.has(server),
    fromResult: (uri) => fromResults.get(uri),
    noteResultParts(server, parts) {
      for (const part of parts) {
        if (part.type !== 'resource_link' && part.type !== 'resource') continue;
        fromResults.delete(part.uri);
        fromResults.set(part.uri, server);
        if (fromResults.size > MAX_REMEMBERED_URIS) fromResults.delete(fromResults.keys().next().value as string);
      }
    },
  };
}

/** The server a plain (unqualified) URI is read from, or why there is none. */
async function route(uri: string, listings: ResourceListings, readable: () => HostMcpServer[]): Promise<{ server: string } | { candidates: string[] }> {
  if (listings.listedBy(uri) === undefined) await listings.listAll();
  const listing = listings.listedBy(uri) ?? [];
  if (listing.length === 1) return { server: listing[0]! };
  if (listing.length > 1) return { candidates: listing };
  const fromResult = listings.fromResult(uri);
  if (fromResult !== undefined) return { server: fromResult };
  if (listings.templates().length === 0) await listings.listTemplates();
  const matching = [...new Set(listings.templates().filter((entry) => matchUriTemplate(entry.uriTemplate, uri)).map((entry) => entry.server))];
  if (matching.length === 1) return { server: matching[0]! };
  if (matching.length > 1) return { candidates: matching };
  // A URI nobody listed (a dynamic one): the only server offering resources is the only place it can be.
  const offeringNow = readable().filter((server) => listings.offers(server.name));
  return offeringNow.length === 1 ? { server: offeringNow[0]!.name } : { candidates: [] };
}
