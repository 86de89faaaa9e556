import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { stageNodeBinary } from './stage-node-binary.js';
import { scaledTimeout } from '@tool-search/property-settings';

// Two cases start a second Node process (through tsx) on a shared 2-core machine: a generous budget.
vi.setConfig({ testTimeout: scaledTimeout(30_000) });

const scratch = mkdtempSync(join(tmpdir(), 'sandbox-stage-'));
const stagedDirectories: string[] = [];
afterAll(() => {
  for (const directory of [scratch, ...stagedDirectories]) rmSync(directory, { recursive: true, force: true });
});

/** Stages `file` in a fresh process (no cache), as another runner would: its path, or `failed: <reason>`. */
function stageInAnotherProcess(file: string): string {
  const moduleUrl = new URL('./stage-node-binary.ts', import.meta.url).href;
  const script = `const { stageNodeBinary } = await import(${JSON.stringify(moduleUrl)}); const r = stageNodeBinary(${JSON.stringify(file)}); console.log(r.ok ? r.path : 'failed: ' + r.reason);`;
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
}

function fakeBinary(directoryMode: number, fileMode: number, name: string): string {
  const directory = join(scratch, name);
  const file = join(directory, 'node');
  mkdirSync(directory, { recursive: true });
  writeFileSync(file, `#!/bin/sh\necho ${name}\n`);
  chmodSync(file, fileMode);
  chmodSync(directory, directoryMode);
  return file;
}

function searchableByOthers(path: string): boolean {
  for (let directory = dirname(path); ; directory = dirname(directory)) {
    if ((statSync(directory).mode & 0o001) === 0) return false;
    if (dirname(directory) === directory) return true;
  }
}

describe('stageNodeBinary', () => {
  it('keeps a binary every uid can already reach', () => {
    chmodSync(scratch, 0o755);
    const file = fakeBinary(0o755, 0o755, 'open');
    expect(stageNodeBinary(file)).toEqual({ ok: true, path: file, staged: false });
    chmodSync(scratch, 0o700);
  });

  it('stages a binary under a private directory in a root-owned, searchable directory, once', () => {
    const file = fakeBinary(0o700, 0o755, 'private');
    const result = stageNodeBinary(file);
    expect(result).toMatchObject({ ok: true, staged: true });
    const path = result.ok ? result.path : '';
    expect(path).not.toBe(file);
    expect(searchableByOthers(path)).toBe(true);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o755);
    expect(statSync(dirname(path)).uid).toBe(process.getuid?.());
    expect(readFileSync(path, 'utf8')).toBe(readFileSync(file, 'utf8'));
    expect(statSync(file).mode & 0o777).toBe(0o755);
    expect(stageNodeBinary(file)).toBe(result);
    stagedDirectories.push(dirname(path));
  });

  it('copies read-only instead of linking a binary that others may write', () => {
    const file = fakeBinary(0o700, 0o777, 'writable');
    const result = stageNodeBinary(file);
    const path = result.ok ? result.path : '';
    expect(statSync(path).ino).not.toBe(statSync(file).ino);
    expect(statSync(path).mode & 0o777).toBe(0o555);
    stagedDirectories.push(dirname(path));
  });

  it('stages one path per binary that another process reuses, and refuses a staging place others could have planted', () => {
    const file = fakeBinary(0o700, 0o755, 'shared');
    const result = stageNodeBinary(file);
    const path = result.ok ? result.path : '';
    stagedDirectories.push(dirname(path));
    expect(stageInAnotherProcess(file)).toBe(path);

    chmodSync(dirname(path), 0o777);
    expect(stageInAnotherProcess(file)).toMatch(/^failed: .* is not a directory of ours that only we can write$/);
    chmodSync(dirname(path), 0o755);

    chmodSync(path, 0o777);
    expect(stageInAnotherProcess(file)).toMatch(/^failed: .* is not a staged copy of /);
    chmodSync(path, 0o755);
    expect(stageInAnotherProcess(file)).toBe(path);
  });
});
