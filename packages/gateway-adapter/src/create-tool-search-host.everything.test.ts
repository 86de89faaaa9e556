// A host in front of the real `@modelcontextprotocol/server-everything` from npm: what a model working through a
// session gets from it (images as images, resource links it can read, progress, cancellation, tasks, hints in
// policy, elicitation declined by default), and a server that cannot start.
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import { renderOutcome } from './render-outcome.js';
import { realMcpServerConfig } from '@tool-search/test-utils';
import type { ToolProgress, ToolSearchSession } from './tool-search-session.js';
import type { OkOutcome } from './tool-call-outcome.js';
import { scaledTimeout } from '@tool-search/property-settings';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
let host: ToolSearchHost;
let session: ToolSearchSession;
let ids = 0;
const call = (target: ToolSearchSession, id: string, args: Record<string, unknown>, options = {}) =>
  target.execute({ name: 'tool_call', args: { id, args }, toolCallId: `e${++ids}` }, options);

beforeAll(async () => {
  host = await createToolSearchHost({
    sources: {
      mcp: [
        realMcpServerConfig('everything'),
        { name: 'broken', transport: 'stdio', command: process.execPath, args: ['-e', 'console.error("Please set BROKEN_API_TOKEN"); process.exit(3)'] },
      ],
    },
    startupTimeoutMs: 30_000,
    restartBackoff: false,
  });
  session = await host.openSession({ config: { mode: 'tools' }, callTimeoutMs: 1_600 });
}, scaledTimeout(60_000));
afterAll(async () => host?.close());

describe('a host in front of server-everything', () => {
  it('catalogues its tools with titles and annotations, and a read_resource tool, task tools included', () => {
    const status = host.status().servers.find((server) => server.name === 'everything');
    expect(status).toMatchObject({ state: 'ready', restarts: 0 });
    expect(status?.tools).toBeGreaterThan(10);
    const described = session.execute({ name: 'tool_describe', args: { id: 'mcp:everything:read_resource' }, toolCallId: 'd1' });
    return expect(described).resolves.toMatchObject({ status: 'ok', result: { annotations: { readOnlyHint: true } } });
  });

  it('returns an image as an image part, whole, that reaches each provider as an image, never as base64 text', async () => {
    const outcome = (await call(session, 'mcp:everything:get-tiny-image', {})) as OkOutcome;
    expect(outcome).toMatchObject({ status: 'ok', untrusted: true, truncated: false });
    const image = outcome.parts?.find((part) => part.type === 'image');
    expect(image?.type === 'image' && Buffer.from(image.data, 'base64').subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(outcome.content).toContain('[image image/png,');
    expect(outcome.content).not.toContain(image?.type === 'image' ? image.data.slice(0, 32) : '-');
    const responses = JSON.stringify(renderOutcome(outcome, 'openai-responses', { callId: 'c1' }));
    expect(responses).toContain('"input_image"');
    const anthropic = JSON.stringify(renderOutcome(outcome, 'anthropic', { callId: 'c1' }));
    expect(anthropic).toContain('"type":"image"');
  });

  it('lets the model read a resource link a tool returned, through the server read_resource tool and the policy', async () => {
    const links = (await call(session, 'mcp:everything:get-resource-links', { count: 1 })) as OkOutcome;
    const link = links.parts?.find((part) => part.type === 'resource_link');
    expect(link?.type).toBe('resource_link');
    const uri = link?.type === 'resource_link' ? link.uri : '';
    const read = (await call(session, 'mcp:everything:read_resource', { uri })) as OkOutcome;
    expect(read).toMatchObject({ status: 'ok', parts: [{ type: 'resource', uri }] });
    const denied = await host.openSession({ config: { mode: 'tools' }, policy: { deny: ['mcp:everything:read_resource'] } });
    expect(await call(denied, 'mcp:everything:read_resource', { uri })).toMatchObject({ status: 'error', code: 'unknown_tool' });
  });

  it('lets progress keep a long call alive past the call timeout, and hands the progress to the caller', async () => {
    const progress: ToolProgress[] = [];
    const outcome = await call(session, 'mcp:everything:trigger-long-running-operation', { duration: 3, steps: 3 }, { onProgress: (p: ToolProgress) => progress.push(p) });
    expect(outcome).toMatchObject({ status: 'ok', content: expect.stringContaining('Long running operation completed') });
    expect(progress.slice(0, 2)).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, total: 3 },
    ]);
  }, scaledTimeout(15_000));

  it('cancels a call when the caller aborts, leaving no listener behind', async () => {
    const controller = new AbortController();
    const pending = call(session, 'mcp:everything:trigger-long-running-operation', { duration: 10, steps: 10 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    expect(await pending).toMatchObject({ status: 'error', code: 'cancelled' });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('runs a task-only tool through the task API', async () => {
    const longer = await host.openSession({ config: { mode: 'tools' }, callTimeoutMs: 20_000 });
    const outcome = await call(longer, 'mcp:everything:simulate-research-query', { topic: 'tool search', ambiguous: false });
    expect(outcome).toMatchObject({ status: 'ok' });
  }, scaledTimeout(30_000));

  it('declines elicitation by default, so the tool reports the decline instead of hanging', async () => {
    const outcome = await call(session, 'mcp:everything:trigger-elicitation-request', {});
    expect(outcome.status).toBe('ok');
    expect(outcome.content.toLowerCase()).toContain('decline');
  });

  it('lets a policy gate on the annotations the server declares; an untrusted hint never admits a tool', async () => {
    const closed = await host.openSession({ config: { mode: 'tools' }, policy: { deny: ['hint:openWorld'] } });
    expect(await call(closed, 'mcp:everything:gzip-file-as-resource', { name: 'x', data: 'y' })).toMatchObject({ status: 'error', code: 'unknown_tool' });
    expect(await call(closed, 'mcp:everything:echo', { message: 'x' })).toMatchObject({ status: 'ok' });
    const readOnly = await host.openSession({ config: { mode: 'tools' }, policy: { allow: ['hint:readOnly'] } });
    expect(readOnly.telemetry().catalog.size).toBe(0);
  });

  it('trusts a server the config trusts: its hints count for allow, and directory mode lists its tools', async () => {
    const trustedHost = await createToolSearchHost({ sources: { mcp: [realMcpServerConfig('everything', { extra: { trusted: true } })] }, startupTimeoutMs: 30_000 });
    try {
      const readOnly = await trustedHost.openSession({ config: { mode: 'directory' }, policy: { allow: ['hint:readOnly'] } });
      expect(await call(readOnly, 'mcp:everything:echo', { message: 'x' })).toMatchObject({ status: 'ok', untrusted: false });
      expect(await call(readOnly, 'mcp:everything:toggle-simulated-logging', {})).toMatchObject({ status: 'error', code: 'unknown_tool' });
      expect(readOnly.surface('anthropic').instructions).toContain('echo (everything)');
    } finally {
      await trustedHost.close();
    }
  }, scaledTimeout(30_000));

  it('validates the arguments of an untrusted tool, with the signature, before the server sees them', async () => {
    const outcome = await call(session, 'mcp:everything:echo', { mesage: 'x' });
    expect(outcome).toMatchObject({ status: 'error', code: 'invalid_args', message: expect.stringContaining('Expected:') });
  });

  it('answers a call to a server that failed to start as unavailable, quoting its stderr', async () => {
    const outcome = await call(session, 'mcp:broken:anything', {});
    expect(outcome).toMatchObject({ status: 'error', code: 'unavailable', message: expect.stringContaining('Please set BROKEN_API_TOKEN') });
    expect(host.status().servers.find((server) => server.name === 'broken')).toMatchObject({ state: 'unavailable', reason: expect.stringContaining('BROKEN_API_TOKEN') });
  });
});
