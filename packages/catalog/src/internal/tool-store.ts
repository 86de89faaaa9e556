// ToolStore: what the catalog holds. Descriptors by id and by name, each owner's context, and the journal of
// changes that views catch up on. Validation lives here because a new entry is judged against what is stored.
import { z } from 'zod';
import { CatalogError } from '../errors.js';
import { isTrustedByDefault } from '../is-trusted-by-default.js';
import { MAX_OWNER_CONTEXT_INDEXED, ownerContextSchema, toolInputSchema } from '../schemas.js';
import { sanitizeText } from '../sanitize-text.js';
import { TOOL_SOURCES, toolId } from '../tool-id.js';
import type { OwnerContext, RejectedTool, ToolDescriptor } from '../types.js';
import { describeServer } from './summarize-server.js';
import { describeType } from './describe-type.js';

const EMPTY_INPUT_SCHEMA = { type: 'object', properties: {} } as const;
/** Changes a view can catch up on one by one; a view further behind re-reads the catalog once. */
const MAX_JOURNAL_ENTRIES = 256;

/** An id and the index slot it had when it left. Slots are reused, so a view drops the slot, not the id. */
export interface RemovedSlot {
  id: string;
  slot: number;
}

/** One change to the catalog, as views replay it. */
export interface StoreChange {
  version: number;
  added: ToolDescriptor[];
  removed: RemovedSlot[];
}

/** What `setOwnerContext` changed: nothing, or the owner's text (indexed) and summary (shown in the server map). */
export interface OwnerContextChange {
  source: string;
  owner: string;
  text: string;
  changed: boolean;
}

/** The catalogued tools, their names and owner contexts, and the versioned journal of changes. */
export class ToolStore {
  private readonly descriptors = new Map<string, ToolDescriptor>();
  /** name -> ids, for describe by name and exact-name ranking. */
  private readonly idsByName = new Map<string, Set<string>>();
  /**
   * `looseNameKey` of a name, and of owner + name -> the id, or the ids when several tools have it (one id is kept
   * as a string: most keys name one tool, and a set per key cost megabytes at ten thousand tools).
   */
  private readonly idsByLooseName = new Map<string, string | Set<string>>();
  /** `<source>:<owner>` -> context text (an MCP server's instructions), indexed with each of its tools. */
  private readonly contexts = new Map<string, string>();
  /** `<source>:<owner>` -> the server map's summary line, from the context as given (its line breaks included). */
  private readonly summaries = new Map<string, string>();
  private readonly journal: StoreChange[] = [];
  private current = 0;

  constructor(private readonly reserved: ReadonlySet<string>) {}

  get size(): number {
    return this.descriptors.size;
  }

  /** Bumped on every change; views compare it with the version they last caught up to. */
  get version(): number {
    return this.current;
  }

  get(id: string): ToolDescriptor | undefined {
    return this.descriptors.get(id);
  }

  has(id: string): boolean {
    return this.descriptors.has(id);
  }

  tools(): IterableIterator<ToolDescriptor> {
    return this.descriptors.values();
  }

  /** Ids of the tools called `name`, in no particular order. */
  idsNamed(name: string): Iterable<string> {
    return this.idsByName.get(name) ?? [];
  }

  /**
   * Ids of the tools a name written another way names: another case, other separators (`read-file`, `ReadFile`,
   * `read.file`), or qualified by its server (`filesystem__read_file`, `filesystem.read_file`) or by source and
   * server (`mcp__filesystem__read_file`). In no particular order; empty for a text with no letter or digit.
   */
  idsNamedLoosely(text: string): Iterable<string> {
    const key = looseNameKey(text);
    if (key === '') return [];
    const ids = new Set(this.looseIds(key));
    // Qualified by source too (`mcp__filesystem__read_file`): the rest is owner + name of a tool of that source.
    for (const source of TOOL_SOURCES) {
      const prefix = looseNameKey(source);
      if (key.length <= prefix.length || !key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length);
      for (const id of this.looseIds(rest)) {
        const tool = this.descriptors.get(id);
        if (tool !== undefined && tool.source === source && looseNameKey(tool.owner) + looseNameKey(tool.name) === rest) ids.add(id);
      }
    }
    return ids;
  }

  private looseIds(key: string): Iterable<string> {
    const entry = this.idsByLooseName.get(key);
    return entry === undefined ? [] : typeof entry === 'string' ? [entry] : entry;
  }

  /** `<source>:<owner>` of a catalogued tool. */
  serverKeyOf(id: string): string | undefined {
    const tool = this.descriptors.get(id);
    return tool === undefined ? undefined : `${tool.source}:${tool.owner}`;
  }

  /** Tools of one owner, by id. */
  toolsOf(source: string, owner: string): ToolDescriptor[] {
    return [...this.descriptors.values()].filter((tool) => tool.source === source && tool.owner === owner).sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  contextOf(tool: ToolDescriptor): string {
    return this.contexts.get(`${tool.source}:${tool.owner}`) ?? '';
  }

  summaryOf(source: string, owner: string): string {
    return this.summaries.get(`${source}:${owner}`) ?? '';
  }

  /** Validates entries one by one: what passes is returned, what does not is reported (never thrown). */
  validate(entries: unknown): { accepted: ToolDescriptor[]; rejected: RejectedTool[] } {
    if (!Array.isArray(entries)) {
      throw new CatalogError('invalid_tool', `Expected an array of tools, received ${describeType(entries)}.`);
    }
    const accepted: ToolDescriptor[] = [];
    const rejected: RejectedTool[] = [];
    const batchIds = new Set<string>();
    entries.forEach((entry, position) => {
      const parsed = toolInputSchema.safeParse(entry);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = z.core.toDotPath(issue?.path ?? []) || '(entry)';
        const path = z.core.toDotPath(['tools', position, ...(issue?.path ?? [])]);
        rejected.push({ index: position, code: 'invalid_tool', path, message: `Invalid tool ${entryLabel(entry, position)}: field \`${field}\`: ${issue?.message ?? 'invalid'}.` });
        return;
      }
      const input = parsed.data;
      const id = toolId(input.source, input.owner, input.name);
      if (this.reserved.has(input.name)) {
        rejected.push({ index: position, id, code: 'reserved_name', message: `Tool ${id} at tools[${position}] uses the reserved name "${input.name}".` });
        return;
      }
      if (this.descriptors.has(id) || batchIds.has(id)) {
        rejected.push({ index: position, id, code: 'duplicate_id', message: `Duplicate tool id "${id}" at tools[${position}]: ids must be unique.` });
        return;
      }
      batchIds.add(id);
      accepted.push({
        id,
        name: input.name,
        source: input.source,
        owner: input.owner,
        ...(input.title === undefined ? {} : { title: input.title }),
        description: input.description ?? '',
        inputSchema: input.inputSchema ?? { ...EMPTY_INPUT_SCHEMA, properties: {} },
        ...(input.outputSchema ? { outputSchema: input.outputSchema } : {}),
        trusted: input.trusted ?? isTrustedByDefault(input.source),
        tags: input.tags ?? [],
        ...(input.annotations === undefined ? {} : { annotations: input.annotations }),
      });
    });
    return { accepted, rejected };
  }

  /** Stores validated descriptors (the caller records the change once the index has them too). */
  put(batch: readonly ToolDescriptor[]): void {
    for (const tool of batch) {
      this.descriptors.set(tool.id, tool);
      const ids = this.idsByName.get(tool.name) ?? new Set<string>();
      ids.add(tool.id);
      this.idsByName.set(tool.name, ids);
      for (const key of looseKeysOf(tool)) {
        const entry = this.idsByLooseName.get(key);
        if (entry === undefined) this.idsByLooseName.set(key, tool.id);
        else if (typeof entry === 'string') this.idsByLooseName.set(key, new Set([entry, tool.id]));
        else entry.add(tool.id);
      }
    }
  }

  /** Forgets one tool by id and by name. */
  delete(id: string): void {
    const tool = this.descriptors.get(id);
    if (tool === undefined) return;
    this.descriptors.delete(id);
    const named = this.idsByName.get(tool.name);
    named?.delete(id);
    if (named && named.size === 0) this.idsByName.delete(tool.name);
    for (const key of looseKeysOf(tool)) {
      const entry = this.idsByLooseName.get(key);
      if (entry === id) this.idsByLooseName.delete(key);
      else if (entry instanceof Set) {
        entry.delete(id);
        if (entry.size === 1) this.idsByLooseName.set(key, [...entry][0] as string);
      }
    }
  }

  /** Records one change for the views; the oldest entries fall off past `MAX_JOURNAL_ENTRIES`. */
  record(added: ToolDescriptor[], removed: RemovedSlot[]): void {
    this.current += 1;
    this.journal.push({ version: this.current, added, removed });
    if (this.journal.length > MAX_JOURNAL_ENTRIES) this.journal.shift();
  }

  /**
   * The changes after version `seen`, oldest first, or undefined when a view must re-read the catalog (it never
   * caught up, or the journal no longer reaches back to it).
   */
  changesSince(seen: number): StoreChange[] | undefined {
    const first = this.journal[0];
    if (seen < 0 || first === undefined || first.version > seen + 1) return undefined;
    return this.journal.filter((change) => change.version > seen);
  }

  /** Validates and stores an owner's context; `changed` is false when text and summary are what they were. */
  setOwnerContext(context: OwnerContext): OwnerContextChange {
    const parsed = ownerContextSchema.safeParse(context);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = z.core.toDotPath(issue?.path ?? []);
      throw new CatalogError('invalid_options', `Invalid owner context: field \`${path || '(context)'}\`: ${issue?.message ?? 'invalid'}.`, path === '' ? {} : { path });
    }
    const { source, owner } = parsed.data;
    const key = `${source}:${owner}`;
    const text = sanitizeText(parsed.data.text, { maxLength: MAX_OWNER_CONTEXT_INDEXED });
    const { title, description } = parsed.data;
    const summary = describeServer(owner, { instructions: parsed.data.text.slice(0, MAX_OWNER_CONTEXT_INDEXED), title, description });
    if ((this.contexts.get(key) ?? '') === text && (this.summaries.get(key) ?? '') === summary) return { source, owner, text, changed: false };
    setOrDelete(this.contexts, key, text);
    setOrDelete(this.summaries, key, summary);
    return { source, owner, text, changed: true };
  }
}

/**
 * A name as a key that ignores how it is written: lower case, without anything that is not a letter or a digit
 * (`Read-File`, `read_file`, `readFile` and `read.file` are all `readfile`).
 */
export function looseNameKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The loose keys a tool is found by: its name, and its owner and name (its source, owner and name are looked up as those). */
function looseKeysOf(tool: ToolDescriptor): Set<string> {
  const name = looseNameKey(tool.name);
  return new Set([name, looseNameKey(tool.owner) + name].filter((key) => key !== ''));
}

function setOrDelete(map: Map<string, string>, key: string, value: string): void {
  if (value === '') map.delete(key);
  else map.set(key, value);
}

function entryLabel(entry: unknown, position: number): string {
  const name = typeof entry === 'object' && entry !== null ? (entry as { name?: unknown }).name : undefined;
  // Only a short, clean name is echoed back; the rest of the payload never is.
  return typeof name === 'string' && /^[\w.@/-]{1,64}$/.test(name) ? `tools[${position}] ("${name}")` : `tools[${position}]`;
}
