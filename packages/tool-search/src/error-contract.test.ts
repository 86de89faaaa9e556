// The error contract every bundled package keeps, checked through the bundle's public API: each error class
// carries the shared `Symbol.for('tool-search.error')` brand (its value the class name), a `name` that is the
// class name, a `code` from its closed union, a message naming what was wrong, a `path` in one syntax
// (`tools[3].owner`, `limits.timeoutMs`), and never a ZodError in its `cause` chain.
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createCatalog,
  createPolicy,
  createRunner,
  createToolSearchHost,
  createToolSearchHttpHandler,
  isCatalogError,
  isGatewayAdapterError,
  isMcpServerError,
  isModesError,
  isPolicyError,
  isSandboxRunnerError,
  isToolSearchError,
  renderSurface,
  resolveToolSearchConfig,
  type CreateToolSearchHttpHandlerOptions,
  type ExecutableTool,
  type ToolInput,
  type ToolSearchHost,
} from './index.js';

/** The one path syntax: identifiers joined by dots, array indexes (and keys that are not identifiers) in brackets. */
const PATH_SYNTAX = /^(?:[A-Za-z_$][\w$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])(?:\.[A-Za-z_$][\w$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*$/;

const GUARDS = {
  CatalogError: isCatalogError,
  PolicyError: isPolicyError,
  SandboxRunnerError: isSandboxRunnerError,
  ModesError: isModesError,
  GatewayAdapterError: isGatewayAdapterError,
  McpServerError: isMcpServerError,
} as const;
type ErrorClassName = keyof typeof GUARDS;

interface ExpectedError {
  name: ErrorClassName;
  code: string;
  /** Text the message must contain: what was wrong. */
  says: string;
  path: string | undefined;
}

async function caught(trigger: () => unknown): Promise<unknown> {
  try {
    await trigger();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

/** Every `cause` down the chain, the error itself first. */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current: unknown = error; current !== undefined && chain.length < 10; current = (current as { cause?: unknown }).cause) {
    chain.push(current);
    if (typeof current !== 'object' || current === null) break;
  }
  return chain;
}

function isZodError(value: unknown): boolean {
  if (value instanceof z.ZodError || value instanceof z.core.$ZodError) return true;
  // A ZodError from another copy of zod: recognised by its name.
  return typeof value === 'object' && value !== null && ['ZodError', '$ZodError'].includes((value as Error).name ?? value.constructor.name);
}

function expectContract(error: unknown, expected: ExpectedError): void {
  expect(error).toBeInstanceOf(Error);
  expect(isToolSearchError(error)).toBe(true);
  expect((error as Record<symbol, unknown>)[Symbol.for('tool-search.error')]).toBe(expected.name);
  for (const [name, guard] of Object.entries(GUARDS)) expect(guard(error), `${name} guard`).toBe(name === expected.name);
  expect(error).toMatchObject({ name: expected.name, code: expected.code, path: expected.path });
  expect((error as Error).message).toContain(expected.says);
  if (expected.path !== undefined) expect(expected.path).toMatch(PATH_SYNTAX);
  for (const link of causeChain(error)) expect(isZodError(link), 'a ZodError in the cause chain').toBe(false);
}

const readFile: ExecutableTool = { name: 'read_file', description: 'Read a file.', execute: () => 'contents' };
const hosts: ToolSearchHost[] = [];
async function host(options: Parameters<typeof createToolSearchHost>[0] = { sources: {} }): Promise<ToolSearchHost> {
  const created = await createToolSearchHost(options);
  hosts.push(created);
  return created;
}
afterAll(async () => {
  await Promise.all(hosts.map((created) => created.close()));
});

describe('the error contract of the bundled packages', () => {
  it('CatalogError: an invalid tool entry names the entry and the field', async () => {
    const tools = [
      { name: 'a', source: 'mcp', owner: 'o' },
      { name: 'b', source: 'mcp', owner: 'o' },
      { name: 'c', source: 'mcp', owner: 'o' },
      { name: 'd', source: 'mcp', owner: 'o', inputSchema: 'object' },
    ] as unknown as ToolInput[];
    expectContract(await caught(() => createCatalog(tools)), { name: 'CatalogError', code: 'invalid_tool', says: 'tools[3]', path: 'tools[3].inputSchema' });
  });

  it('CatalogError: an invalid option names the option', async () => {
    const error = await caught(() => createCatalog([], { searchDefaultLimit: 'ten' as unknown as number }));
    expectContract(error, { name: 'CatalogError', code: 'invalid_options', says: 'searchDefaultLimit', path: 'searchDefaultLimit' });
  });

  it('PolicyError: an invalid config names the field', async () => {
    const error = await caught(() => createPolicy({ deny: ['read_file', 7 as unknown as string] }));
    expectContract(error, { name: 'PolicyError', code: 'invalid_config', says: 'deny[1]', path: 'deny[1]' });
  });

  it('SandboxRunnerError: an invalid limit names the option', async () => {
    const error = await caught(() => createRunner({ limits: { timeoutMs: 'soon' as unknown as number } }));
    expectContract(error, { name: 'SandboxRunnerError', code: 'invalid_options', says: 'limits.timeoutMs', path: 'limits.timeoutMs' });
  });

  it('ModesError: an invalid client tool names its place, and the cause lists plain issues', async () => {
    const error = await caught(() =>
      renderSurface({ mode: 'tools', catalog: createCatalog([]), clientTools: [{ name: 'x', source: 'plugin', owner: 'a' }] as never }),
    );
    expectContract(error, { name: 'ModesError', code: 'invalid_options', says: 'clientTools[0].source', path: 'clientTools[0].source' });
    expect((error as Error).cause).toEqual([expect.objectContaining({ path: 'clientTools[0].source', message: expect.any(String) })]);
  });

  it('GatewayAdapterError: an invalid tools.toolSearch setting names the key', async () => {
    const error = await caught(() => resolveToolSearchConfig({ mode: 'fast' }));
    expectContract(error, { name: 'GatewayAdapterError', code: 'invalid_config', says: 'toolSearch.mode', path: 'toolSearch.mode' });
  });

  it('GatewayAdapterError: an invalid local tool at host creation names its place in the sources', async () => {
    const error = await caught(() => host({ sources: { openclaw: [readFile, { ...readFile, name: 'bad name' }] } }));
    expectContract(error, { name: 'GatewayAdapterError', code: 'invalid_options', says: 'sources.openclaw[1]', path: 'sources.openclaw[1].name' });
  });

  it('GatewayAdapterError at openSession: a policy and a modes error come out as one class, the original as the cause', async () => {
    const shared = await host({ sources: { openclaw: [readFile] } });
    const badPolicy = await caught(() => shared.openSession({ config: { mode: 'tools' }, policy: { deny: ['ok', 7 as unknown as string] } }));
    expectContract(badPolicy, { name: 'GatewayAdapterError', code: 'invalid_config', says: 'deny[1]', path: 'deny[1]' });
    expectContract((badPolicy as Error).cause, { name: 'PolicyError', code: 'invalid_config', says: 'deny[1]', path: 'deny[1]' });

    const collision = await caught(() => shared.openSession({ config: { mode: 'tools' }, client: [{ name: 'read_file' }] }));
    expectContract(collision, { name: 'GatewayAdapterError', code: 'invalid_options', says: 'read_file', path: undefined });
    expect((collision as Error).cause).toMatchObject({ name: 'ModesError', code: 'client_tool_collision' });

  });

  it('GatewayAdapterError at openSession: a catalog error comes out wrapped', async () => {
    const shared = await host({ sources: { openclaw: [readFile] } });
    const badRequest = await caught(() => shared.openSession({ config: { mode: 'directory' }, request: 7 as unknown as string }));
    expectContract(badRequest, { name: 'GatewayAdapterError', code: 'invalid_options', says: 'CatalogError', path: undefined });
    expect((badRequest as Error).cause).toMatchObject({ name: 'CatalogError' });

  });

  it('GatewayAdapterError at openSession: a runner error comes out wrapped', async () => {
    const badPool = await host({ sources: { openclaw: [readFile] }, sandboxPoolSize: 99 });
    const badRunner = await caught(() => badPool.openSession({ config: { mode: 'code' } }));
    expectContract(badRunner, { name: 'GatewayAdapterError', code: 'invalid_options', says: 'pool', path: 'pool.size' });
    expect((badRunner as Error).cause).toMatchObject({ name: 'SandboxRunnerError', code: 'invalid_options' });
  });

  it('McpServerError: an HTTP handler without allowed hosts names the option', async () => {
    const shared = await host();
    const options = { host: shared, config: { mode: 'tools' }, allowedHosts: [] } satisfies CreateToolSearchHttpHandlerOptions;
    expectContract(await caught(() => createToolSearchHttpHandler(options)), { name: 'McpServerError', code: 'invalid_options', says: 'allowedHosts', path: 'allowedHosts' });
  });

  it('isToolSearchError refuses plain errors, look-alikes and values', () => {
    expect(isToolSearchError(new Error('x'))).toBe(false);
    expect(isToolSearchError({ name: 'CatalogError', code: 'invalid_tool' })).toBe(false);
    expect(isToolSearchError(Object.assign(new Error('x'), { [Symbol.for('tool-search.error')]: 'CatalogError' }))).toBe(false);
    expect(isToolSearchError(null)).toBe(false);
    expect(isToolSearchError('CatalogError')).toBe(false);
  });
});
