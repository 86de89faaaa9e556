// The host's cap on concurrent code-mode runs, with the real sandbox runner (Node children): 40 looping bodies from
// 8 sessions at once never run more than the cap, and a run past the queue gets a `busy` answer the model can read.
import { createRunner, probeRuntime, type ProbeResult, type Runner } from '@tool-search/sandbox-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import { defaultMaxConcurrentRuns } from './shared/index.js';
import { scaledTimeout } from '@tool-search/property-settings';

let probe: ProbeResult & { ok: true };
let runner: Runner;
/** Runs inside `runner.run` now, and the most at once. */
let running = 0;
let peak = 0;
/** The real runner, counting the runs in progress (what the cap bounds). */
let counted: Runner;
const hosts: ToolSearchHost[] = [];
beforeAll(async () => {
  const probed = await probeRuntime();
  if (!probed.ok) throw new Error(`the workspace's pinned Node runtime should pass the probe: ${probed.reason}`);
  probe = probed;
  runner = createRunner({ nodePath: probe.nodePath, pool: { size: 0 } });
  counted = {
    async run(options) {
      running += 1;
      peak = Math.max(peak, running);
      try {
        return await runner.run(options);
      } finally {
        running -= 1;
      }
    },
    close: () => runner.close(),
  };
}, scaledTimeout(60_000));
afterAll(async () => {
  await Promise.all(hosts.map((host) => host.close()));
  await runner?.close();
});

/** A body that loops on the CPU for `ms` and returns its number. */
const looping = (ms: number, index: number) => `const end = Date.now() + ${ms}; let spins = 0; while (Date.now() < end) spins += 1; return ${index};`;

describe('createToolSearchHost code runs (codeRuns)', () => {
  it('never runs more than maxConcurrent bodies at once: 40 looping bodies from 8 sessions', { timeout: scaledTimeout(120_000) }, async () => {
    const host = await createToolSearchHost({ sources: {}, runner: counted, probe: async () => probe, codeRuns: { maxConcurrent: 4 } });
    hosts.push(host);
    const sessions = await Promise.all(Array.from({ length: 8 }, (_, index) => host.openSession({ config: true, sessionId: `s${index}` })));
    peak = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, index) => sessions[index % 8]!.execute({ name: 'tool_search_code', args: { code: looping(200, index) }, toolCallId: `c${index}` })),
    );
    // Each run either ran (and returned its own number) or waited its whole timeout for a slot and was told so.
    const ran = outcomes.filter((outcome, index) => outcome.status === 'ok' && (outcome.result as { value: unknown }).value === index);
    const busy = outcomes.filter((outcome) => outcome.status === 'error' && outcome.code === 'busy');
    console.log(`40 bodies, cap 4: peak ${peak} at once, ${ran.length} ran, ${busy.length} busy`);
    expect(ran.length + busy.length).toBe(40);
    expect(ran.length).toBeGreaterThanOrEqual(8);
    expect(peak).toBe(4);
  });

  it('answers busy, naming the limit, once the queue is full, and lets the queued run through', { timeout: scaledTimeout(60_000) }, async () => {
    const host = await createToolSearchHost({ sources: {}, runner: counted, probe: async () => probe, codeRuns: { maxConcurrent: 1, maxQueued: 1 } });
    hosts.push(host);
    const sessions = await Promise.all([0, 1, 2].map((index) => host.openSession({ config: true, sessionId: `b${index}` })));
    const first = sessions[0]!.execute({ name: 'tool_search_code', args: { code: looping(1_500, 0) }, toolCallId: 'first' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const queued = sessions[1]!.execute({ name: 'tool_search_code', args: { code: looping(10, 1) }, toolCallId: 'queued' });
    const refused = await sessions[2]!.execute({ name: 'tool_search_code', args: { code: looping(10, 2) }, toolCallId: 'refused' });
    expect(refused).toMatchObject({
      status: 'error',
      code: 'busy',
      message: 'Busy: 1 code runs are running on this server (the limit) and 1 more are waiting; try again shortly, or do the work in fewer runs',
    });
    expect(refused.content).toContain('Busy: 1 code runs are running on this server');
    expect(await first).toMatchObject({ status: 'ok', result: { value: 0 } });
    expect(await queued).toMatchObject({ status: 'ok', result: { value: 1 } });
  });

  it('caps one session at maxConcurrentPerSession, so it cannot take every slot', { timeout: scaledTimeout(60_000) }, async () => {
    const host = await createToolSearchHost({ sources: {}, runner: counted, probe: async () => probe, codeRuns: { maxConcurrent: 4, maxConcurrentPerSession: 2 } });
    hosts.push(host);
    const session = await host.openSession({ config: true });
    peak = 0;
    const outcomes = await Promise.all(Array.from({ length: 4 }, (_, index) => session.execute({ name: 'tool_search_code', args: { code: looping(300, index) }, toolCallId: `p${index}` })));
    expect(outcomes.every((outcome) => outcome.status === 'ok')).toBe(true);
    expect(peak).toBe(2);
  });

  it('derives the default cap from the machine: twice the cores, bounded by memory, at least 1', async () => {
    expect(defaultMaxConcurrentRuns()).toBeGreaterThanOrEqual(1);
    await expect(createToolSearchHost({ sources: {}, codeRuns: { maxConcurrent: 0 } })).rejects.toMatchObject({ code: 'invalid_options', path: 'codeRuns.maxConcurrent' });
  });
});
