import { spawn } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpServer, type ConnectMcpServerOptions, type McpLogEntry, type McpProgress, type McpServerConnection } from './connect-mcp-server.js';
import { REAL_MCP_SERVER_SCRIPTS, realMcpServerConfig } from '@tool-search/test-utils';
import { scaledTimeout } from '@tool-search/property-settings';

// @modelcontextprotocol/server-everything over stdio: the reference server for MCP clients (content kinds,
// resources, prompts, progress, logging, sampling, elicitation, tasks, annotations).
const open: McpServerConnection[] = [];
async function connect(options: ConnectMcpServerOptions = {}): Promise<McpServerConnection> {
  const connection = await connectMcpServer(realMcpServerConfig('everything'), { requestTimeoutMs: 20_000, ...options });
  open.push(connection);
  return connection;
}
afterEach(async () => {
  await Promise.all(open.splice(1).map((connection) => connection.close()));
});
afterAll(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

let shared: McpServerConnection;
beforeAll(async () => {
  shared = await connect();
});

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('connectMcpServer with server-everything', () => {
  it('exposes the server instructions and identity from initialize', () => {
    expect(shared.status).toBe('connected');
    expect(shared.instructions).toEqual(expect.stringContaining('Everything'));
    expect(shared.serverInfo).toEqual({ name: 'mcp-servers/everything', version: '2.0.0', title: 'Everything Reference Server' });
    expect(shared.features).toEqual({ tools: true, resources: true, prompts: true, completions: true, logging: true, toolTasks: true });
  });

  it('keeps title, annotations and task support of every tool', () => {
    const longRunning = shared.tools().find((tool) => tool.name === 'trigger-long-running-operation');
    expect(longRunning).toMatchObject({
      title: 'Trigger Long Running Operation Tool',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    });
    expect(shared.tools().find((tool) => tool.name === 'simulate-research-query')).toMatchObject({ title: 'Simulate Research Query', taskSupport: 'required' });
    expect(shared.withheldTools()).toEqual([]);
  });

  it('declares elicitation and sampling by default, so the tools that need them are listed; roots only when given', () => {
    const names = shared.tools().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['trigger-elicitation-request', 'trigger-sampling-request', 'simulate-research-query']));
    expect(names).not.toContain('get-roots-list');
  });

  it('returns an image as an image part with its whole base64 data', async () => {
    const result = await shared.callTool('get-tiny-image', {});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const images = result.parts.filter((part) => part.type === 'image');
    expect(images).toHaveLength(1);
    const image = images[0]!;
    expect(image.type === 'image' && image.mimeType).toBe('image/png');
    expect(image.type === 'image' && Buffer.from(image.data, 'base64').subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(result.parts.map((part) => part.type)).toEqual(['text', 'image', 'text']);
  });

  it('returns resource links, and each one can be read through readResource', async () => {
    const result = await shared.callTool('get-resource-links', { count: 2 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const links = result.parts.filter((part) => part.type === 'resource_link');
    expect(links).toHaveLength(2);
    for (const link of links) {
      if (link.type !== 'resource_link') continue;
      expect(link.uri).toMatch(/^demo:\/\/resource\/dynamic\/(text|blob)\/\d+$/);
      const read = await shared.readResource(link.uri);
      expect(read.ok).toBe(true);
      if (!read.ok) continue;
      expect(read.parts).toHaveLength(1);
      expect(read.parts[0]).toMatchObject({ type: 'resource', uri: link.uri });
      const part = read.parts[0]!;
      expect(part.type === 'resource' && (part.text !== undefined || part.blob !== undefined)).toBe(true);
    }
  });

  it('returns an embedded resource as a resource part', async () => {
    const result = await shared.callTool('get-resource-reference', { resourceType: 'Blob', resourceId: 3 });
    expect(result.ok && result.parts.find((part) => part.type === 'resource')).toMatchObject({
      type: 'resource',
      uri: 'demo://resource/dynamic/blob/3',
      blob: expect.any(String),
    });
  });

  it('passes structured content through as structured', async () => {
    const result = await shared.callTool('get-structured-content', { location: 'New York' });
    expect(result).toMatchObject({ ok: true, isError: false, structured: { temperature: expect.any(Number), conditions: expect.any(String) } });
  });

  it('lets progress reset the idle timeout and delivers every progress notification', async () => {
    const progress: McpProgress[] = [];
    const result = await shared.callTool('trigger-long-running-operation', { duration: 3, steps: 3 }, { timeoutMs: 1_600, onProgress: (p) => progress.push(p) });
    expect(result).toMatchObject({ ok: true, parts: [{ type: 'text', text: 'Long running operation completed. Duration: 3 seconds, Steps: 3.' }] });
    // The last one arrives with the result (in the same read): it is delivered before the result all the same.
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
      { progress: 3, total: 3 },
    ]);
  });

  it('delivers a last progress notification read together with the result, every time', async () => {
    for (let run = 0; run < 5; run += 1) {
      const progress: McpProgress[] = [];
      expect(await shared.callTool('trigger-long-running-operation', { duration: 0.2, steps: 4 }, { onProgress: (p) => progress.push(p) })).toMatchObject({ ok: true });
      expect(progress.map((entry) => entry.progress)).toEqual([1, 2, 3, 4]);
    }
  });

  it('fails a call that keeps reporting progress once the maximum total time is over', async () => {
    const result = await shared.callTool('trigger-long-running-operation', { duration: 6, steps: 6 }, { timeoutMs: 1_500, maxTotalTimeoutMs: 2_500 });
    expect(result).toEqual({ ok: false, code: 'timeout', message: 'MCP server "everything" did not finish tools/call trigger-long-running-operation within the maximum of 2500 ms' });
    expect(shared.status).toBe('connected');
  }, scaledTimeout(10_000));

  it('times out on the idle timeout when no progress arrives in time', async () => {
    const result = await shared.callTool('trigger-long-running-operation', { duration: 2, steps: 1 }, { timeoutMs: 500 });
    expect(result).toEqual({ ok: false, code: 'timeout', message: 'MCP server "everything" did not answer tools/call trigger-long-running-operation within 500 ms' });
  });

  it('cancels a call when its signal aborts, and leaves no listener on the signal', async () => {
    const controller = new AbortController();
    for (let index = 0; index < 15; index += 1) expect((await shared.callTool('echo', { message: `m${index}` }, { signal: controller.signal })).ok).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const started = Date.now();
    const pending = shared.callTool('trigger-long-running-operation', { duration: 10, steps: 10 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    expect(await pending).toEqual({ ok: false, code: 'cancelled', message: 'tools/call trigger-long-running-operation on MCP server "everything" was cancelled' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await shared.callTool('echo', { message: 'still fine' })).ok).toBe(true);
  });

  it('calls a task-only tool through the task API, with its status updates as progress', async () => {
    const progress: McpProgress[] = [];
    const result = await shared.callTool('simulate-research-query', { topic: 'tide pools' }, { onProgress: (p) => progress.push(p) });
    expect(result).toMatchObject({ ok: true, isError: false, taskId: expect.any(String) });
    expect(result.ok && result.parts[0]).toMatchObject({ type: 'text', text: expect.stringContaining('# Research Report: tide pools') });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)?.message).toMatch(/^completed/);
  }, scaledTimeout(20_000));

  it('cancels a running task when its call is aborted', async () => {
    const controller = new AbortController();
    const pending = shared.callTool('simulate-research-query', { topic: 'slow' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 500);
    expect(await pending).toEqual({ ok: false, code: 'cancelled', message: 'tools/call simulate-research-query on MCP server "everything" was cancelled' });
  });

  it('declines elicitation by default, so the tool reports the decline', async () => {
    const result = await shared.callTool('trigger-elicitation-request', {});
    expect(result.ok && JSON.stringify(result.parts)).toContain('decline');
  });

  it('refuses sampling by default with an error that names the server', async () => {
    const result = await shared.callTool('trigger-sampling-request', { prompt: 'hello' });
    const text = result.ok ? JSON.stringify(result.parts) : result.message;
    expect(text).toContain('Sampling is not available: the gateway does not let MCP server \\"everything\\" ask its model for completions');
  });

  it('lists resources, resource templates and prompts, gets a prompt and completes an argument', async () => {
    const resources = await shared.listResources();
    expect(resources.ok && resources.items.length).toBeGreaterThan(0);
    expect(resources.ok && resources.items[0]).toMatchObject({ uri: expect.any(String), name: expect.any(String) });
    const templates = await shared.listResourceTemplates();
    expect(templates.ok && templates.items.map((template) => template.uriTemplate)).toEqual(
      expect.arrayContaining(['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/{resourceId}']),
    );
    const prompts = await shared.listPrompts();
    expect(prompts.ok && prompts.items.map((prompt) => prompt.name)).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt']));
    const prompt = await shared.getPrompt('args-prompt', { city: 'Lyon' });
    expect(prompt).toMatchObject({ ok: true, messages: [{ role: 'user', part: { type: 'text', text: expect.stringContaining('Lyon') } }] });
    const completion = await shared.complete({ type: 'ref/prompt', name: 'completable-prompt' }, { name: 'department', value: 'E' });
    expect(completion).toMatchObject({ ok: true, values: ['Engineering'] });
  });

  it('reports a resource that does not exist as a failure value', async () => {
    const read = await shared.readResource('demo://resource/nowhere');
    expect(read).toMatchObject({ ok: false, code: 'failed', message: expect.stringContaining('MCP server "everything" failed resources/read demo://resource/nowhere') });
  });
});

describe('connectMcpServer with server-everything: client capabilities', () => {
  it('offers roots only when given, and answers roots/list with them', async () => {
    const connection = await connect({ roots: [{ uri: 'file:///tmp/project', name: 'project' }] });
    expect(connection.tools().map((tool) => tool.name)).toContain('get-roots-list');
    const result = await connection.callTool('get-roots-list', {});
    expect(result.ok && JSON.stringify(result.parts)).toContain('file:///tmp/project');
  });

  it('hands elicitation to the callback and returns its answer to the server', async () => {
    const seen: string[] = [];
    const connection = await connect({
      onElicitation: async (request, context) => {
        seen.push(`${context.server}:${request.mode ?? 'form'}`);
        return { action: 'accept', content: { name: 'Ada', check: true, firstLine: 'hello', integer: 42, number: 1.5, untitledSingleSelectEnum: 'option1' } };
      },
    });
    const result = await connection.callTool('trigger-elicitation-request', {});
    expect(seen).toEqual(['everything:form']);
    expect(result.ok && JSON.stringify(result.parts)).toContain('accept');
  });

  it('delivers log notifications to onLog, never below the level cap', async () => {
    const everything: McpLogEntry[] = [];
    const capped: McpLogEntry[] = [];
    const [all, top] = await Promise.all([
      connect({ logLevel: 'debug', onLog: (entry) => everything.push(entry) }),
      connect({ logLevel: 'emergency', onLog: (entry) => capped.push(entry) }),
    ]);
    await Promise.all([all.callTool('toggle-simulated-logging', {}), top.callTool('toggle-simulated-logging', {})]);
    // One message at once, then one every 5 s, each at a random level.
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    await Promise.all([all.callTool('toggle-simulated-logging', {}), top.callTool('toggle-simulated-logging', {})]);
    expect(everything.length).toBeGreaterThanOrEqual(2);
    expect(everything[0]).toEqual({ server: 'everything', level: expect.any(String), message: expect.stringMatching(/^\w+[- ]level message|^\w+ level-message/i) });
    for (const entry of capped) expect(entry.level).toBe('emergency');
  }, scaledTimeout(30_000));

  it('leaves a task-only tool out, with the reason, when include/exclude patterns leave it out', async () => {
    const connection = await connect();
    expect(connection.tools().length).toBeGreaterThan(5);
    const filtered = await connectMcpServer(realMcpServerConfig('everything', { extra: { include: ['get-*', 'echo'], exclude: ['get-env'] } }), { requestTimeoutMs: 20_000 });
    open.push(filtered);
    expect(filtered.tools().map((tool) => tool.name).sort()).toEqual(
      ['echo', 'get-annotated-message', 'get-resource-links', 'get-resource-reference', 'get-structured-content', 'get-sum', 'get-tiny-image'].sort(),
    );
    expect(filtered.withheldTools()).toContainEqual({ name: 'get-env', reason: 'left out by the include/exclude patterns of MCP server "everything"' });
    expect(await filtered.callTool('get-env', {})).toEqual({
      ok: false,
      code: 'failed',
      message: 'Tool get-env of MCP server "everything" is not offered (left out by the include/exclude patterns of MCP server "everything")',
    });
  });
});

describe('connectMcpServer with server-everything over HTTP', () => {
  const freePort = async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  };
  const startServer = async (mode: 'sse' | 'streamableHttp') => {
    const port = await freePort();
    const child = spawn(process.execPath, [REAL_MCP_SERVER_SCRIPTS.everything(), mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start`)), 15_000);
      child.stderr.on('data', (chunk: Buffer) => {
        if (/port/i.test(chunk.toString('utf8'))) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    return { port, stop: () => new Promise<void>((resolve) => (child.exitCode === null ? child.once('exit', () => resolve()).kill('SIGTERM') : resolve())) };
  };

  it.each([
    ['Streamable HTTP', 'streamableHttp', 'http', '/mcp'],
    ['legacy HTTP+SSE', 'sse', 'sse', '/sse'],
  ] as const)('lists and calls tools over %s', async (_label, mode, transport, path) => {
    const server = await startServer(mode);
    try {
      const connection = await connectMcpServer({ name: 'remote', transport, url: `http://127.0.0.1:${server.port}${path}` }, { requestTimeoutMs: 20_000 });
      open.push(connection);
      expect(connection.status).toBe('connected');
      expect(connection.tools().map((tool) => tool.name)).toContain('get-tiny-image');
      const image = await connection.callTool('get-tiny-image', {});
      expect(image.ok && image.parts.map((part) => part.type)).toEqual(['text', 'image', 'text']);
      const progress: McpProgress[] = [];
      expect(await connection.callTool('trigger-long-running-operation', { duration: 1, steps: 2 }, { onProgress: (p) => progress.push(p) })).toMatchObject({ ok: true });
      expect(progress[0]).toEqual({ progress: 1, total: 2 });
      await connection.close();
    } finally {
      await server.stop();
    }
  }, scaledTimeout(30_000));
});
