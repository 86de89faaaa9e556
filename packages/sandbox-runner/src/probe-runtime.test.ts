import { chmodSync, copyFileSync, linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isSupportedNodeVersion } from './internal/resolve-node-runtime.js';
import { probeRuntime, probeRuntimeDetailed } from './probe-runtime.js';
import { scaledTimeout } from '@tool-search/property-settings';

const scratch = mkdtempSync(join(tmpdir(), 'sandbox-probe-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('probeRuntime', { timeout: scaledTimeout(30_000) }, () => {
  it('finds a Node >= 26.12.1 that passes the canary with OS isolation on this Linux machine', async () => {
    const result = await probeRuntime();
    expect(result).toMatchObject({ ok: true, engine: 'node', isolation: 'os' });
    expect(result.ok && result.version).toMatch(/^v(2[6-9]|[3-9]\d)\./);
  });

  it('finds the QuickJS engine with no Node runtime at all: this process runs it, isolation wasm', async () => {
    expect(await probeRuntime({ engine: 'quickjs' })).toEqual({
      ok: true,
      engine: 'quickjs',
      nodePath: process.execPath,
      version: 'quickjs-emscripten 0.32.0',
      isolation: 'wasm',
    });
  });

  it('takes QuickJS under auto when the only Node is this process (a plain Node 20 install), never under os', async () => {
    // The host Node (20 in CI) is older than the Node engine needs.
    expect(isSupportedNodeVersion(process.version)).toBe(false);
    expect(await probeRuntime({ nodePath: process.execPath })).toEqual({
      ok: true,
      engine: 'quickjs',
      nodePath: process.execPath,
      version: 'quickjs-emscripten 0.32.0',
      isolation: 'wasm',
    });
    expect(await probeRuntime({ nodePath: process.execPath, isolation: 'os' })).toEqual({
      ok: false,
      reason: expect.stringContaining('the QuickJS engine runs in a worker thread without the OS layer'),
    });
  });

  it('keeps a configured Node binary under auto: one that is too old is reported, not swapped for QuickJS', async () => {
    const fakeNode = join(scratch, 'node-20');
    writeFileSync(fakeNode, '#!/bin/sh\necho v20.19.0\n');
    chmodSync(fakeNode, 0o755);
    expect(await probeRuntime({ nodePath: fakeNode })).toEqual({ ok: false, reason: expect.stringContaining('is Node v20.19.0') });
  });

  it('caches the probe per binary: a second call gets the same promise, so no second canary runs', async () => {
    const first = probeRuntimeDetailed({ engine: 'node' });
    expect(probeRuntimeDetailed({ engine: 'node' })).toBe(first);
    expect(await probeRuntime()).toMatchObject({ ok: true, nodePath: (await first).ok ? (await first as { nodePath: string }).nodePath : '' });
  });

  it('says why when the binary is too old', async () => {
    const fakeNode = join(scratch, 'old-node');
    writeFileSync(fakeNode, '#!/bin/sh\necho v20.0.0\n');
    chmodSync(fakeNode, 0o755);
    const result = await probeRuntime({ engine: 'node', nodePath: fakeNode });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('is Node v20.0.0; the sandbox needs >= 26.12.1') });
  });

  it('says why when the binary does not exist', async () => {
    const result = await probeRuntime({ engine: 'node', nodePath: join(scratch, 'missing') });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('does not exist') });
  });

  it('refuses a binary that passes the version check but does not enforce the sandbox', async () => {
    // Claims a good version, then ignores every flag: the canary never sees `ready`.
    const fakeNode = join(scratch, 'liar-node');
    writeFileSync(fakeNode, '#!/bin/sh\necho v26.12.1\n');
    chmodSync(fakeNode, 0o755);
    const result = await probeRuntime({ engine: 'node', nodePath: fakeNode, isolation: 'node-only' });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('the canary failed') });
  });

  it('keeps OS isolation for a binary under a private directory (a root runner execs a staged copy as uid 65534)', async () => {
    const found = await probeRuntimeDetailed({ engine: 'node' });
    expect(found.ok).toBe(true);
    const hidden = join(scratch, 'private');
    mkdirSync(hidden, { mode: 0o700 });
    const nodePath = join(hidden, 'node');
    try {
      linkSync(found.ok ? found.nodePath : '', nodePath);
    } catch {
      copyFileSync(found.ok ? found.nodePath : '', nodePath);
      chmodSync(nodePath, 0o755);
    }
    const result = await probeRuntimeDetailed({ engine: 'node', nodePath });
    expect(result).toMatchObject({ ok: true, nodePath, isolation: 'os' });
    const asRoot = process.getuid?.() === 0;
    expect(result.ok && result.execPath !== nodePath).toBe(asRoot);
  });
});
