import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stageNodeBinary } from './stage-node-binary.js';

const scratch = mkdtempSync(join(tmpdir(), 'sandbox-stage-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
  });

  it('copies read-only instead of linking a binary that others may write', () => {
    const file = fakeBinary(0o700, 0o777, 'writable');
    const result = stageNodeBinary(file);
    const path = result.ok ? result.path : '';
    expect(statSync(path).ino).not.toBe(statSync(file).ino);
    expect(statSync(path).mode & 0o777).toBe(0o555);
  });

  it('removes what it staged when the process exits', () => {
    const file = fakeBinary(0o700, 0o755, 'exit');
    const moduleUrl = pathToFileURL(fileURLToPath(new URL('./stage-node-binary.ts', import.meta.url))).href;
    const script = `const { stageNodeBinary } = await import(${JSON.stringify(moduleUrl)}); const r = stageNodeBinary(${JSON.stringify(file)}); console.log(r.ok ? r.path : 'failed');`;
    const path = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
    expect(path).toMatch(/tool-search-node-/);
    expect(existsSync(dirname(path))).toBe(false);
  });
});
