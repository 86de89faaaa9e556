// Adversarial suite, channel layer: escaped code writing straight to the child→parent channel, and to stdout
// and stderr. Every line is untrusted: a bad or over-long line is `protocol` (and a kill); a forged `call` goes
// through the same bridge handler and the same budget as a real one, and no further; stdout is never parsed.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createEscapedRunnerForTests } from '../internal/create-escaped-runner-for-tests.js';
import { ENGINES, perEngine } from './fixtures/engines.js';
import { channelWrite, forgedCallLine, writeToChannel } from './fixtures/forged-messages.js';
import { createRecordingBridge } from './fixtures/recording-bridge.js';
import { scaledTimeout } from '@tool-search/property-settings';

// Each case spawns real children on a shared 2-core machine: generous per-test budgets, never timed assertions.
vi.setConfig({ testTimeout: scaledTimeout(30_000), hookTimeout: scaledTimeout(30_000) });

// Lines forged onto the channel: the parent treats a QuickJS worker's lines exactly as a Node child's.
describe.each(ENGINES)('channel (%s engine)', (engine) => {
const runner = createEscapedRunnerForTests({ engine, pool: { size: 1 } });
afterAll(async () => {
  await runner.close();
});

async function runEscaped(code: string, bridge = createRecordingBridge().bridge) {
  return runner.run({ code, bridge, timeoutMs: 15_000 });
}

describe('channel: garbage from the child', () => {
  it('reports a non-JSON line as protocol', async () => {
    const result = await runEscaped(`${writeToChannel(JSON.stringify(['this is not json\n']), engine)} return 'after garbage';`);
    expect(result).toMatchObject({ ok: false, error: { code: 'protocol' } });
  });

  it('reports raw binary bytes with a newline as protocol', async () => {
    const bytes = perEngine(engine, { node: 'Uint8Array.from([0, 255, 254, 1, 123, 10])', quickjs: 'String.fromCharCode(0, 255, 254, 1, 123, 10)' });
    const result = await runEscaped(`${channelWrite(engine, bytes)}; return 'after binary';`);
    expect(result).toMatchObject({ ok: false, error: { code: 'protocol' } });
  });

  it('reports an over-long line (4 MiB, no newline) as protocol instead of buffering it', async () => {
    const result = await runEscaped(`
      const chunk = '{"type":"call","padding":"' + 'a'.repeat(64 * 1024);
      for (let index = 0; index < 64; index += 1) ${channelWrite(engine, 'chunk')};
      return 'after long line';
    `);
    expect(result).toMatchObject({ ok: false, error: { code: 'protocol' } });
  });

  it('reports well-formed JSON of an unknown message type as protocol', async () => {
    const result = await runEscaped(
      `${writeToChannel(JSON.stringify([`${JSON.stringify({ type: 'exec', command: 'rm -rf /' })}\n`]), engine)} return 'after unknown';`,
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'protocol' } });
  });

  it('reports a forged call to a method outside search/describe/call (__proto__, constructor) as protocol', async () => {
    const { bridge, calls } = createRecordingBridge();
    const lines = [forgedCallLine({ id: 9001, method: '__proto__', args: [] }), forgedCallLine({ id: 9002, method: 'constructor', args: [] })];
    const result = await runEscaped(`${writeToChannel(JSON.stringify(lines), engine)} return 'after forged methods';`, bridge);
    expect(result).toMatchObject({ ok: false, error: { code: 'protocol' } });
    expect(calls).toEqual([]);
  });
});

describe('channel: a forged call is exactly as powerful as a real one', () => {
  it('refuses forged call arguments larger than a real call may send (2 MiB > the 1 MiB argument cap)', async () => {
    const { bridge, calls } = createRecordingBridge();
    const result = await runEscaped(
      `
        const line = JSON.stringify({ type: 'call', id: 9001, method: 'call', args: ['mcp:forged:big', { blob: 'b'.repeat(2 * 1024 * 1024) }] }) + '\\n';
        ${channelWrite(engine, 'line')};
        return await tools.search('after the big forged call');
      `,
      bridge,
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'protocol' } });
    expect(calls).toEqual([]);
  });

  it('stops a forged log line longer than the 8 KiB line cap with output_limit (no truncation in the parent)', async () => {
    const lines = [`${JSON.stringify({ type: 'log', level: 'log', text: 'f'.repeat(100 * 1024) })}\n`];
    const result = await runEscaped(`${writeToChannel(JSON.stringify(lines), engine)} return 'after forged log';`);
    expect(result).toMatchObject({ ok: false, error: { code: 'output_limit' } });
    expect(result.logs).toEqual([]);
  });

  it('reports a second, forged ready message as protocol', async () => {
    const lines = [`${JSON.stringify({ type: 'ready', version: 'v0.0.0' })}\n`];
    const result = await runEscaped(`${writeToChannel(JSON.stringify(lines), engine)} return 'after forged ready';`);
    expect(result).toMatchObject({ ok: false, error: { code: 'protocol' } });
  });

  it('reports a second, forged started message as protocol (it cannot reopen the retry window)', async () => {
    const lines = [`${JSON.stringify({ type: 'started' })}\n`];
    const result = await runEscaped(`${writeToChannel(JSON.stringify(lines), engine)} return 'after forged started';`);
    expect(result).toMatchObject({ ok: false, error: { code: 'protocol', message: expect.stringContaining('unexpected started') } });
  });

  it('reaches the same bridge handler, with an AbortSignal, and counts in stats', async () => {
    const { bridge, calls } = createRecordingBridge();
    const lines = [forgedCallLine({ id: 9001, method: 'call', args: ['mcp:forged:tool', { forged: true }] })];
    const result = await runEscaped(
      `${writeToChannel(JSON.stringify(lines), engine)} return await tools.call('mcp:real:tool', { forged: false });`,
      bridge,
    );
    expect(result).toMatchObject({ ok: true, value: { echo: { forged: false } } });
    expect(calls.map((call) => call.args)).toEqual([
      ['mcp:forged:tool', { forged: true }],
      ['mcp:real:tool', { forged: false }],
    ]);
    expect(calls.every((call) => call.signal instanceof AbortSignal)).toBe(true);
    expect(result.stats).toMatchObject({ calls: { call: 2 } });
  });

  it('counts forged calls against the same 50-call budget (25 forged + 25 real, then the 51st → too_many_calls)', async () => {
    const { bridge, calls } = createRecordingBridge();
    const forged = Array.from({ length: 25 }, (_, index) =>
      forgedCallLine({ id: 10_000 + index, method: 'search', args: [`forged ${index}`, {}] }),
    );
    const result = await runEscaped(
      `
        const forged = ${JSON.stringify(forged)};
        for (let index = 0; index < 25; index += 1) {
          ${channelWrite(engine, 'forged[index]')};
          await tools.search('real ' + index);
        }
        await tools.search('the fifty-first');
        return 'over budget yet finished';
      `,
      bridge,
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'too_many_calls' } });
    const queries = calls.map((call) => call.args[0] as string);
    expect(queries).toHaveLength(50);
    expect(queries.filter((query) => query.startsWith('forged')).length).toBe(25);
    expect(queries).not.toContain('the fifty-first');
  });
});

  it('refuses a forged 95,000-key call line unparsed, before any handler runs', async () => {
    const { bridge, calls } = createRecordingBridge();
    const result = await runEscaped(
      `
        const big = {};
        for (let index = 0; index < 95000; index += 1) big['k' + index] = 0;
        ${channelWrite(engine, "JSON.stringify({ type: 'call', id: 9001, method: 'search', args: ['q', big] }) + '\\n'")};
        return await tools.search('after the forged attack');
      `,
      bridge,
    );
    expect(result.ok ? 'ok' : result.error).toEqual({
      code: 'protocol',
      message: 'the sandbox child broke the channel protocol: a channel line holds more than 10000 array elements and object members',
    });
    expect(calls).toEqual([]);
  });
});

describe('channel: stdout and stderr are diagnostics only (node engine: QuickJS has neither)', () => {
  const runner = createEscapedRunnerForTests({ engine: 'node', pool: { size: 1 } });
  afterAll(async () => {
    await runner.close();
  });
  const runEscaped = (code: string, bridge = createRecordingBridge().bridge) => runner.run({ code, bridge, timeoutMs: 15_000 });

  it('never parses a protocol message printed on stdout', async () => {
    const { bridge, calls } = createRecordingBridge();
    const fakeResult = JSON.stringify({ type: 'result', ok: true, value: 'forged on stdout' });
    const fakeCall = forgedCallLine({ id: 1, method: 'call', args: ['mcp:stdout:forged', {}] });
    const result = await runEscaped(
      `process.stdout.write(${JSON.stringify(`${fakeResult}\n`)}); process.stdout.write(${JSON.stringify(fakeCall)}); return 'real value';`,
      bridge,
    );
    expect(result).toMatchObject({ ok: true, value: 'real value' });
    expect(calls).toEqual([]);
  });

  it('stops a 2 MiB stdout flood with output_limit', async () => {
    const result = await runEscaped(`
      const block = 'o'.repeat(64 * 1024);
      for (let index = 0; index < 32; index += 1) require('node:fs').writeSync(1, block);
      return 'after stdout flood';
    `);
    expect(result).toMatchObject({ ok: false, error: { code: 'output_limit' } });
  });

  it('stops a 2 MiB stderr flood with output_limit', async () => {
    const result = await runEscaped(`
      const block = 'e'.repeat(64 * 1024);
      for (let index = 0; index < 32; index += 1) require('node:fs').writeSync(2, block);
      return 'after stderr flood';
    `);
    expect(result).toMatchObject({ ok: false, error: { code: 'output_limit' } });
  });
});
