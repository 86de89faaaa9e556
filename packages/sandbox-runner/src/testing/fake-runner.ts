import type { Bridge, Runner, RunOptions, RunResult } from '../types.js';

/** A recorded `run` of the fake runner. */
export interface FakeRunRecord {
  code: string;
  timeoutMs: number | undefined;
}

/**
 * A fake `Runner` for unit tests where a real child is not the point: it runs the body in-process (no
 * sandbox) with a `tools` object wired to the bridge exactly like the real runner, and records each run.
 * Never use outside tests.
 */
export function createFakeRunner(): Runner & { runs: FakeRunRecord[]; closed: boolean } {
  const runs: FakeRunRecord[] = [];
  const fake = {
    runs,
    closed: false,
    async run(options: RunOptions): Promise<RunResult> {
      runs.push({ code: options.code, timeoutMs: options.timeoutMs });
      const calls = { search: 0, describe: 0, call: 0 };
      const controller = new AbortController();
      const ctx = { signal: controller.signal };
      const bridge: Bridge = options.bridge;
      const logs: { level: 'log'; text: string }[] = [];
      const tools = {
        search: async (query: string, searchOptions?: Record<string, unknown>) => {
          calls.search += 1;
          return shapeSearchAnswer(JSON.parse(JSON.stringify(await bridge.search(query, searchOptions, ctx))) as unknown);
        },
        describe: async (id: string) => {
          calls.describe += 1;
          return JSON.parse(JSON.stringify(await bridge.describe(id, ctx))) as unknown;
        },
        call: async (id: string, args: unknown) => {
          calls.call += 1;
          return JSON.parse(JSON.stringify(await bridge.call(id, args, ctx)) ?? 'null') as unknown;
        },
      };
      const console = { log: (...parts: unknown[]) => logs.push({ level: 'log', text: parts.map(String).join(' ') }) };
      const stats = () => ({ wallTimeMs: 0, calls: { ...calls }, warm: false });
      try {
        const body = new Function('tools', 'console', `return (async () => {\n${options.code}\n})();`) as (
          t: typeof tools,
          c: typeof console,
        ) => Promise<unknown>;
        const value = await body(tools, console);
        return { ok: true, value: value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown), logs, stats: stats() };
      } catch (error) {
        return { ok: false, error: { code: 'runtime', message: error instanceof Error ? error.message : String(error) }, logs, stats: stats() };
      } finally {
        controller.abort();
      }
    },
    async close() {
      fake.closed = true;
    },
  };
  return fake;
}

/** As the real runtime: a `{ hits, ...more }` answer is the hits array with `more`'s fields on it (not enumerable). */
function shapeSearchAnswer(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const { hits, ...more } = value as { hits?: unknown };
  if (!Array.isArray(hits)) return value;
  for (const [key, field] of Object.entries(more)) if (key !== 'length') Object.defineProperty(hits, key, { value: field, enumerable: false, writable: true, configurable: true });
  return hits;
}
