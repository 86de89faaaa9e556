// Adversarial suite, one read: a value the body hands over (bridge arguments, the result) is read once inside the
// realm, and that one read is what every check sees and what the parent gets. Getters, proxies, toJSON and
// valueOf that answer differently per read get the parent a plain JSON value of that one answer, or a clear
// refusal in the body; never a value no check saw. Each case counts the reads the body's traps saw and asserts
// exactly what reached the parent's handlers, on both engines.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createRunner } from '../index.js';
import { createEscapedRunnerForTests } from '../internal/create-escaped-runner-for-tests.js';
import { ENGINES } from './fixtures/engines.js';
import { forgedCallLine, writeToChannel } from './fixtures/forged-messages.js';
import { findNonPlainJson } from './fixtures/find-non-plain-json.js';
import { createRecordingBridge, type RecordedBridgeCall } from './fixtures/recording-bridge.js';
import { scaledTimeout } from '@tool-search/property-settings';

// Each case runs real sandboxes on a shared 2-core machine: generous per-test budgets, never timed assertions.
vi.setConfig({ testTimeout: scaledTimeout(30_000), hookTimeout: scaledTimeout(30_000) });

/** The arguments each handler call received, after checking that every one of them is plain JSON data. */
function receivedArgs(calls: RecordedBridgeCall[]): unknown[][] {
  for (const call of calls) expect(findNonPlainJson(call.args)).toBeUndefined();
  return calls.map((call) => call.args);
}

describe.each(ENGINES)('one read (%s engine)', (engine) => {
  const runner = createRunner({ engine, pool: { size: 1 } });
  afterAll(async () => {
    await runner.close();
  });

  async function runBody(code: string, bridge = createRecordingBridge().bridge) {
    return runner.run({ code, bridge, timeoutMs: 15_000 });
  }

  describe('one read: search options', () => {
    it('forwards the one answer of a limit getter that answers 1, then an object', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `
        let reads = 0;
        const options = { get limit() { reads += 1; return reads === 1 ? 1 : { smuggled: true }; } };
        await tools.search('weather', options);
        return reads;
      `,
        bridge,
      );
      expect(result).toMatchObject({ ok: true, value: 1 });
      expect(receivedArgs(calls)).toEqual([['weather', { limit: 1 }]]);
    });

    it('forwards the one answer of a proxy whose get trap answers differently per read', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `
        let reads = 0;
        const options = new Proxy({ limit: 0 }, {
          get(target, key) {
            if (key !== 'limit') return Reflect.get(target, key);
            reads += 1;
            return reads === 1 ? 1 : { smuggled: true };
          },
        });
        await tools.search('weather', options);
        return reads;
      `,
        bridge,
      );
      expect(result).toMatchObject({ ok: true, value: 1 });
      expect(receivedArgs(calls)).toEqual([['weather', { limit: 1 }]]);
    });

    it('forwards exactly the keys of the one ownKeys answer of a proxy that lists more keys on later reads', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `
        let listings = 0;
        const options = new Proxy({}, {
          ownKeys() { listings += 1; return listings === 1 ? ['limit'] : ['limit', 'smuggled']; },
          getOwnPropertyDescriptor(target, key) { return { value: key === 'limit' ? 1 : 'extra', enumerable: true, configurable: true, writable: true }; },
          get(target, key) { return key === 'limit' ? 1 : key === 'smuggled' ? 'extra' : undefined; },
        });
        await tools.search('weather', options);
        return listings;
      `,
        bridge,
      );
      expect(result).toMatchObject({ ok: true, value: 1 });
      expect(receivedArgs(calls)).toEqual([['weather', { limit: 1 }]]);
    });

    it('calls a toJSON once and forwards what that call returned', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `
        let calls = 0;
        const options = { limit: 1, toJSON() { calls += 1; return calls === 1 ? { limit: 2 } : ['not', 'an', 'object']; } };
        await tools.search('weather', options);
        return calls;
      `,
        bridge,
      );
      expect(result).toMatchObject({ ok: true, value: 1 });
      expect(receivedArgs(calls)).toEqual([['weather', { limit: 2 }]]);
    });

    it('refuses options whose one toJSON answer is not an object, and calls it once', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `
        let calls = 0;
        const options = { limit: 1, toJSON() { calls += 1; return calls === 1 ? ['an', 'array'] : { limit: 1 }; } };
        try { await tools.search('weather', options); } catch (error) { return [error.name, error.message, calls]; }
        return 'sent';
      `,
        bridge,
      );
      expect(result).toMatchObject({
        ok: true,
        value: ['TypeError', 'tools.search(query, options): options must serialize to a JSON object', 1],
      });
      expect(calls).toEqual([]);
    });

    it('refuses a value 100,000 levels deep behind a toJSON or a getter that a first read finds shallow', async () => {
      // QuickJS's JSON.stringify is quadratic in the depth and does not poll the interrupt handler: such a value
      // must be stopped while it is read, at the cap, not after. Each case is refused the same way on both engines.
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `
        let deep = 1;
        for (let level = 0; level < 100000; level += 1) deep = [deep];
        let reads = 0;
        const viaGetter = { get limit() { reads += 1; return reads === 1 ? 1 : deep; } };
        const viaToJSON = { limit: 1, toJSON() { return { limit: deep }; } };
        const outcomes = [];
        for (const options of [viaGetter, viaToJSON]) {
          try { await tools.search('weather', options); outcomes.push('sent'); } catch (error) { outcomes.push(error.name + ': ' + error.message); }
        }
        try { await tools.call('mcp:a:b', { get nested() { return deep; } }); outcomes.push('sent'); } catch (error) { outcomes.push(error.name + ': ' + error.message); }
        return outcomes;
      `,
        bridge,
      );
      expect(result).toMatchObject({
        ok: true,
        value: [
          'sent',
          'RangeError: tools.search arguments are nested more than 256 levels deep',
          'RangeError: tools.call arguments are nested more than 256 levels deep',
        ],
      });
      // The getter was read once: its first answer (1) is what crossed.
      expect(receivedArgs(calls)).toEqual([['weather', { limit: 1 }]]);
    });
  });

  describe('one read: call and describe arguments', () => {
    it('forwards the one answer of a getter on tools.call arguments', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `
        let reads = 0;
        const args = { get city() { reads += 1; return reads === 1 ? 'Oslo' : { smuggled: true }; } };
        await tools.call('mcp:weather:get_forecast', args);
        return reads;
      `,
        bridge,
      );
      expect(result).toMatchObject({ ok: true, value: 1 });
      expect(receivedArgs(calls)).toEqual([['mcp:weather:get_forecast', { city: 'Oslo' }]]);
    });

    it('forwards the one answer of getters on array elements, nested in call arguments', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `
        let reads = 0;
        const cities = ['Oslo', 'Bergen'];
        Object.defineProperty(cities, 1, { enumerable: true, get() { reads += 1; return reads === 1 ? 'Bergen' : { smuggled: true }; } });
        await tools.call('mcp:weather:get_forecast', { where: { cities } });
        return reads;
      `,
        bridge,
      );
      expect(result).toMatchObject({ ok: true, value: 1 });
      expect(receivedArgs(calls)).toEqual([['mcp:weather:get_forecast', { where: { cities: ['Oslo', 'Bergen'] } }]]);
    });

    it('forwards the one answer of an array proxy whose length and elements change per read', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `
        const reads = {};
        const days = new Proxy([0, 0], {
          get(target, key) {
            if (key !== 'length' && key !== '0' && key !== '1') return Reflect.get(target, key);
            reads[key] = (reads[key] || 0) + 1;
            if (key === 'length') return reads.length === 1 ? 2 : 5000;
            return reads[key] === 1 ? Number(key) + 1 : { smuggled: true };
          },
        });
        await tools.call('mcp:weather:get_forecast', { days });
        return reads;
      `,
        bridge,
      );
      expect(result).toMatchObject({ ok: true, value: { length: 1, 0: 1, 1: 1 } });
      expect(receivedArgs(calls)).toEqual([['mcp:weather:get_forecast', { days: [1, 2] }]]);
    });

    it('unwraps a Number or String object through its valueOf / Symbol.toPrimitive once', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `
        let conversions = 0;
        const limit = new Number(0);
        Object.defineProperty(limit, 'valueOf', { enumerable: false, value() { conversions += 1; return conversions === 1 ? 3 : 3000; } });
        const city = new String('');
        Object.defineProperty(city, Symbol.toPrimitive, { value() { conversions += 1; return conversions === 2 ? 'Oslo' : 'elsewhere'; } });
        await tools.call('mcp:weather:get_forecast', { limit, city });
        return conversions;
      `,
        bridge,
      );
      expect(result).toMatchObject({ ok: true, value: 2 });
      expect(receivedArgs(calls)).toEqual([['mcp:weather:get_forecast', { limit: 3, city: 'Oslo' }]]);
    });

    it('refuses ids and queries that are objects with toString, valueOf or Symbol.toPrimitive, converting none of them', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `
        let conversions = 0;
        const id = {
          toString() { conversions += 1; return 'mcp:weather:get_forecast'; },
          valueOf() { conversions += 1; return 'mcp:weather:get_forecast'; },
          [Symbol.toPrimitive]() { conversions += 1; return 'mcp:weather:get_forecast'; },
        };
        const outcomes = [];
        for (const attempt of [() => tools.describe(id), () => tools.call(id, {}), () => tools.search(id), () => tools.describe(new String('mcp:a:b'))]) {
          try { await attempt(); outcomes.push('sent'); } catch (error) { outcomes.push(error.name + ': ' + error.message); }
        }
        return { outcomes, conversions };
      `,
        bridge,
      );
      expect(result).toMatchObject({
        ok: true,
        value: {
          outcomes: [
            'TypeError: tools.describe(id): id must be a string',
            'TypeError: tools.call(id, args): id must be a string',
            'TypeError: tools.search(query, options): query must be a string',
            'TypeError: tools.describe(id): id must be a string',
          ],
          conversions: 0,
        },
      });
      expect(calls).toEqual([]);
    });

    it('takes a separate snapshot for a call that a getter makes while its own arguments are being read', async () => {
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `
        let reads = 0;
        let inner;
        const args = {
          get city() {
            reads += 1;
            const mine = reads;
            inner = tools.search('inner', { get limit() { reads += 1; return reads; } });
            return mine === 1 ? 'Oslo' : 'elsewhere';
          },
        };
        await tools.call('mcp:weather:get_forecast', args);
        await inner;
        return reads;
      `,
        bridge,
      );
      expect(result).toMatchObject({ ok: true, value: 2 });
      const received = receivedArgs(calls);
      expect(received).toHaveLength(2);
      expect(received).toEqual(expect.arrayContaining([['inner', { limit: 2 }], ['mcp:weather:get_forecast', { city: 'Oslo' }]]));
    });

    it('keeps its bookkeeping of the read out of reach of index accessors the body puts on Array.prototype and Object.prototype', async () => {
      // Accessors that swallow writes and answer undefined would blind a walk that keeps its work list in an
      // ordinary array. (QuickJS's own JSON.stringify keeps its cycle check in one, so there the accessors run
      // during the read: body code, as a getter's is, and the read stays one read.)
      const { bridge, calls } = createRecordingBridge();
      const result = await runBody(
        `
        let deep = 1;
        for (let level = 0; level < 100000; level += 1) deep = [deep];
        for (const key of ['0', '1', '2', '3']) {
          for (const proto of [Array.prototype, Object.prototype]) {
            Object.defineProperty(proto, key, { configurable: true, get() { return undefined; }, set(value) {} });
          }
        }
        // (A string: the accessors swallow the body's own array writes as well.)
        let outcomes = '';
        for (const args of [{ where: { city: 'Oslo', days: [[1], [2]] } }, { where: { days: [deep] } }]) {
          try { await tools.call('mcp:weather:get_forecast', args); outcomes += 'sent; '; } catch (error) { outcomes += error.name + ': ' + error.message; }
        }
        return outcomes;
      `,
        bridge,
      );
      expect(result).toMatchObject({ ok: true, value: 'sent; RangeError: tools.call arguments are nested more than 256 levels deep' });
      expect(receivedArgs(calls)).toEqual([['mcp:weather:get_forecast', { where: { city: 'Oslo', days: [[1], [2]] } }]]);
    });
  });

  describe('one read: the caps count what the text holds', () => {
    // The read stops at a cap as it goes; it must count exactly what the JSON text will hold (every element of
    // an array, holes too; the members of an object but those JSON leaves out), so the cap sits where it did.
    it('lets call arguments up to 10,000 members in the tuple cross, and refuses one more', async () => {
      const { bridge, calls } = createRecordingBridge({ call: async (_id, args) => Object.keys(args as object).length });
      const result = await runBody(
        `
        const wide = (count) => { const value = { skipped: undefined, alsoSkipped: () => 1 }; for (let index = 0; index < count; index += 1) value['k' + index] = index; return value; };
        const outcomes = [];
        for (const count of [9998, 9999]) {
          try { outcomes.push(await tools.call('mcp:a:b', wide(count))); } catch (error) { outcomes.push(error.name + ': ' + error.message); }
        }
        return outcomes;
      `,
        bridge,
      );
      // The tuple is two elements plus the arguments' members.
      expect(result).toMatchObject({ ok: true, value: [9998, 'RangeError: tools.call arguments hold more than 10000 array elements and object members'] });
      expect(calls).toHaveLength(1);
    });

    it('returns a result of 10,000 members (an object with members JSON leaves out, an array with holes) and refuses 10,001', async () => {
      const bodies = [
        "const value = { skipped: undefined, alsoSkipped: () => 1 }; for (let index = 0; index < 10000; index += 1) value['k' + index] = 0; return value;",
        'return new Array(10000);',
        'return new Array(10001);',
      ];
      const outcomes = [];
      for (const code of bodies) {
        const result = await runBody(code);
        outcomes.push(result.ok ? Object.keys(result.value as object).length : result.error);
      }
      expect(outcomes).toEqual([
        10_000,
        10_000,
        { code: 'result_too_large', message: 'the result holds more than 10000 array elements and object members' },
      ]);
    });
  });

  describe('one read: the result', () => {
    it('returns the one answer of a getter on the result', async () => {
      const result = await runBody(`
        let reads = 0;
        return { get value() { reads += 1; return reads === 1 ? 'checked' : { smuggled: true }; }, get reads() { return reads; } };
      `);
      // Members are read in order: 'value' once (reads becomes 1), then 'reads'.
      expect(result).toMatchObject({ ok: true, value: { value: 'checked', reads: 1 } });
      expect(findNonPlainJson(result.ok ? result.value : undefined)).toBeUndefined();
    });

    it('refuses a result whose toJSON answers with a value 100,000 levels deep', async () => {
      const result = await runBody(`
        let deep = 1;
        for (let level = 0; level < 100000; level += 1) deep = [deep];
        return { value: 1, toJSON() { return { value: deep }; } };
      `);
      expect(result).toMatchObject({ ok: false, error: { code: 'result_too_large', message: 'the result is nested more than 256 levels deep' } });
    });
  });
});

// The parent's side: a line from the child is parsed once, and the handler gets that parse, checked; forged
// lines (escaped code writing the channel itself) are the hardest case, since no realm snapshot made them.
describe.each(ENGINES)('one read: the parent (%s engine)', (engine) => {
  const runner = createEscapedRunnerForTests({ engine, pool: { size: 1 } });
  afterAll(async () => {
    await runner.close();
  });

  it('hands the handler the one parse of a forged call line, as plain data, even with duplicate keys and __proto__', async () => {
    const { bridge, calls } = createRecordingBridge();
    // JSON.parse keeps the last of duplicate keys: the checks and the handler both see that one parse.
    const duplicated =
      '{"type":"call","id":9001,"method":"search","args":["first",{"limit":1}],"args":["weather",{"limit":{"smuggled":true},"__proto__":{"limit":5}}]}\n';
    const lines = [duplicated, forgedCallLine({ id: 9002, method: 'call', args: ['mcp:a:b', { city: 'Oslo' }] })];
    const result = await runner.run({ code: `${writeToChannel(JSON.stringify(lines), engine)} return 'after forged lines';`, bridge, timeoutMs: 15_000 });
    expect(result).toMatchObject({ ok: true, value: 'after forged lines' });
    const received = receivedArgs(calls);
    expect(received).toEqual([
      ['weather', JSON.parse('{"limit":{"smuggled":true},"__proto__":{"limit":5}}')],
      ['mcp:a:b', { city: 'Oslo' }],
    ]);
    const options = received[0]?.[1] as Record<string, unknown>;
    expect(Object.getPrototypeOf(options)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(options)).toEqual(['limit', '__proto__']);
  });
});
