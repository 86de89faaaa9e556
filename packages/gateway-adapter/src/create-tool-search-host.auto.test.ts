import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';

const many = (count: number, description = 'A tool.'): ExecutableTool[] =>
  Array.from({ length: count }, (_, index) => ({ name: `tool_${index}`, description, execute: () => index }));
let host: ToolSearchHost | undefined;
afterEach(async () => host?.close());

describe('auto mode', () => {
  it('renders direct for a small catalog, saying why', async () => {
    host = await createToolSearchHost({ sources: { openclaw: many(5) } });
    const session = await host.openSession({ config: { mode: 'auto' } });
    expect(session.decision).toMatchObject({ mode: 'direct', requestedMode: 'auto', autoReason: expect.stringMatching(/^5 tools, \d+ bytes within 30 tools and 40000 bytes: direct$/) });
    expect(session.telemetry()).toMatchObject({ directReason: 'auto', autoReason: session.decision.autoReason });
    expect(session.surface('openai-chat').tools).toHaveLength(5);
  });

  it('renders its search mode above the tool count, without rendering the catalog to measure it', async () => {
    host = await createToolSearchHost({ sources: { openclaw: many(31) } });
    const session = await host.openSession({ config: { mode: 'auto', auto: { searchMode: 'tools' } } });
    expect(session.decision).toMatchObject({ mode: 'tools', autoReason: '31 tools > 30: tools' });
  });

  it('renders its search mode above the byte threshold, 10% of the context window by default', async () => {
    host = await createToolSearchHost({ sources: { openclaw: many(10, 'x'.repeat(900)) } });
    const small = await host.openSession({ config: { mode: 'auto', contextWindowTokens: 20_000, auto: { searchMode: 'directory' } } });
    expect(small.decision).toMatchObject({ mode: 'directory', autoReason: expect.stringMatching(/^10 tools, \d+ bytes > 8000: directory$/) });
    const large = await host.openSession({ config: { mode: 'auto', contextWindowTokens: 1_000_000 } });
    expect(large.decision.mode).toBe('direct');
  });

  it('falls back from code to tools like code mode does when auto picks code without a runtime', async () => {
    host = await createToolSearchHost({ sources: { openclaw: many(40) }, probe: async () => ({ ok: false, reason: 'no runtime here' }) });
    const session = await host.openSession({ config: { mode: 'auto' } });
    expect(session.decision).toMatchObject({ mode: 'tools', requestedMode: 'auto', fallbackReason: 'no runtime here', autoReason: '40 tools > 30: code' });
  });
});

describe('direct mode over a provider limit', () => {
  it('warns once per format when more tools are declared than OpenAI documents, and records the limit', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()) }));
    host = await createToolSearchHost({ sources: { openclaw: many(130) }, logger });
    const session = await host.openSession({ config: false });
    session.surface('openai-responses');
    session.surface('openai-responses');
    session.surface('anthropic');
    expect(lines.filter((line) => String(line['msg']).includes('more tools than the provider documents'))).toEqual([
      expect.objectContaining({ format: 'openai-responses', toolsDeclared: 130, providerMaxTools: 128 }),
    ]);
    session.surface('openai-chat');
    expect(session.telemetry().surface).toMatchObject({ format: 'openai-chat', toolsDeclared: 130, providerMaxTools: 128 });
  });
});
