// A refused server answers exactly as an unknown one, also while it is down: the differential reference is a host
// built from the admitted tools alone (here: without the server, whose every tool the policy refuses by name).
import { describe, expect, it, onTestFinished } from 'vitest';
import { mcpFixtureConfig } from '@tool-search/test-utils';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';
import type { ToolSearchSession } from './tool-search-session.js';
import { scaledTimeout } from '@tool-search/property-settings';

const CORE: ExecutableTool[] = [
  { name: 'read_file', description: 'Read the contents of a file.', inputSchema: { type: 'object', properties: {} }, execute: () => 'read' },
  { name: 'send_email', description: 'Send an email message.', inputSchema: { type: 'object', properties: {} }, execute: () => 'sent' },
];
// Every tool the fixture lists has a `_` in its name: these patterns refuse all of them, not the server as such.
const REFUSED_BY_NAME = { deny: ['mcp:fixture:*_*'] };
// Down for the whole test once killed: no restart within it.
const NO_RESTART = { initialMs: 600_000, maxMs: 600_000 };

/** A `tool_call` of `id` (the call id is the tool id: both hosts are asked the very same thing). */
const call = (session: ToolSearchSession, id: string) => session.execute({ name: 'tool_call', args: { id, args: {} }, toolCallId: id });
/** What the model reads of an outcome (its timing aside). */
const seen = (outcome: ToolCallOutcome) => ({ ...outcome, durationMs: 0 });
async function open(options: Parameters<typeof createToolSearchHost>[0]): Promise<ToolSearchHost> {
  const host = await createToolSearchHost(options);
  onTestFinished(() => host.close());
  return host;
}
const until = async (check: () => boolean, what: string) => {
  for (let attempt = 0; attempt < 500 && !check(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};

describe('createToolSearchHost: a refused server that is down', () => {
  it('answers a made-up id under it, and its own refused tools, byte for byte as a host without the server does', async () => {
    const withServer = await open({ sources: { openclaw: CORE, mcp: [mcpFixtureConfig('fixture')] }, restartBackoff: NO_RESTART, startupTimeoutMs: scaledTimeout(30_000) });
    const admittedOnly = await open({ sources: { openclaw: CORE } });
    const refused = await withServer.openSession({ config: { mode: 'tools' }, policy: REFUSED_BY_NAME });
    const reference = await admittedOnly.openSession({ config: { mode: 'tools' }, policy: REFUSED_BY_NAME });
    // The control: a session that may see the server gets its pid (to kill it), and `unavailable` once it is down.
    const allowed = await withServer.openSession({ config: { mode: 'tools' } });
    const pid = await call(allowed, 'mcp:fixture:server_pid');
    expect(pid).toMatchObject({ status: 'ok', result: expect.stringMatching(/^\d+$/) });
    const probes = ['mcp:fixture:madeup', 'mcp:fixture:echo_text', 'mcp:fixture:server_pid', 'mcp:nosuch:madeup', 'madeup'];
    const before = await Promise.all(probes.map(async (id) => [seen(await call(refused, id)), seen(await call(reference, id))]));
    for (const [ours, theirs] of before) expect(ours).toEqual(theirs);

    process.kill(Number((pid as { result: string }).result), 'SIGKILL');
    await until(() => withServer.status().servers[0]?.state === 'unavailable', 'the server to be down');
    expect(await call(allowed, 'mcp:fixture:madeup')).toMatchObject({ status: 'error', code: 'unavailable', message: expect.stringContaining('MCP server "fixture"') });
    for (const id of probes) {
      const ours = await call(refused, id);
      expect(seen(ours), id).toEqual(seen(await call(reference, id)));
      expect(ours).toMatchObject({ status: 'error', code: 'unknown_tool' });
      expect(JSON.stringify(ours)).not.toContain('fixture"');
    }
  }, scaledTimeout(30_000));
});
