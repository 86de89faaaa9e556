import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSessionLog } from './create-session-log.js';

const folder = mkdtempSync(join(tmpdir(), 'gw-log-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('createSessionLog', () => {
  it('appends one JSON line per event with the session id, creating folders', () => {
    const path = join(folder, 'nested', 'session.jsonl');
    const log = createSessionLog({ path }, { sessionId: 's-1' });
    log.write('search', { query: 'weather', hitIds: ['plugin:wx:forecast'] });
    log.write('call', { toolId: 'plugin:wx:forecast', status: 'ok' });
    log.flush();
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line['sessionId'], line['event']])).toEqual([
      ['s-1', 'search'],
      ['s-1', 'call'],
    ]);
    expect(lines[0]).toMatchObject({ query: 'weather', hitIds: ['plugin:wx:forecast'], msg: 'search' });
    expect(typeof lines[0]?.['time']).toBe('string');
  });
});
