import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createWarmPool, MAX_CONSECUTIVE_SPAWN_FAILURES } from './create-warm-pool.js';
import type { ChildExit, ChildReadiness, SandboxChild } from './spawn-sandbox-child.js';

// A fake child that records what the pool does to it; the test settles readiness and exit itself.
function createFakeChild(id: number) {
  let resolveReady!: (readiness: ChildReadiness) => void;
  let resolveExited!: (exit: ChildExit) => void;
  const record = { id, killed: 0, unrefs: 0 };
  const state = { hasExited: false };
  const child: SandboxChild = {
    pid: id,
    ready: new Promise((resolve) => (resolveReady = resolve)),
    exited: new Promise((resolve) => (resolveExited = resolve)),
    get hasExited() {
      return state.hasExited;
    },
    attach() {},
    send() {},
    kill() {
      record.killed += 1;
    },
    unref() {
      record.unrefs += 1;
    },
    ref() {},
  };
  return {
    child,
    record,
    becomeReady: () => resolveReady({ ok: true, version: 'v26.12.1' }),
    failToStart: () => resolveReady({ ok: false, reason: 'boom', cause: 'exited' }),
    exit: () => {
      state.hasExited = true;
      resolveExited({ code: 0, signal: null, stderrTail: '' });
    },
    /** The exit is seen (`hasExited`) but the pool's `exited` handler has not run yet. */
    markExitedOnly: () => {
      state.hasExited = true;
    },
  };
}

function createRecordingSpawner() {
  const spawned: Array<ReturnType<typeof createFakeChild>> = [];
  return {
    spawned,
    spawnChild: () => {
      const fake = createFakeChild(spawned.length + 1);
      spawned.push(fake);
      return fake.child;
    },
  };
}

const logger = pino({ level: 'silent' });
const flush = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('createWarmPool', () => {
  it('spawns size children up front and unrefs each so idle children never hold the parent open', () => {
    const spawner = createRecordingSpawner();
    const pool = createWarmPool({ size: 3, spawnChild: spawner.spawnChild, logger });
    expect(spawner.spawned).toHaveLength(3);
    expect(spawner.spawned.map((fake) => fake.record.unrefs)).toEqual([1, 1, 1]);
    expect(pool.size).toBe(3);
    pool.close();
  });

  it('hands out a ready child before one that is still starting', async () => {
    const spawner = createRecordingSpawner();
    const pool = createWarmPool({ size: 2, spawnChild: spawner.spawnChild, logger });
    spawner.spawned[1]?.becomeReady();
    await flush();
    expect(pool.take()).toBe(spawner.spawned[1]?.child);
    expect(pool.take()).toBe(spawner.spawned[0]?.child);
    pool.close();
  });

  it('refills on a later turn when asked after a take, never above size', async () => {
    const spawner = createRecordingSpawner();
    const pool = createWarmPool({ size: 2, spawnChild: spawner.spawnChild, logger });
    pool.take();
    await flush();
    expect(spawner.spawned).toHaveLength(2);
    pool.refill();
    pool.refill();
    expect(spawner.spawned).toHaveLength(2);
    await flush();
    expect(spawner.spawned).toHaveLength(3);
    expect(pool.size).toBe(2);
    pool.close();
  });

  it('replaces an idle child that dies', async () => {
    const spawner = createRecordingSpawner();
    const pool = createWarmPool({ size: 1, spawnChild: spawner.spawnChild, logger });
    spawner.spawned[0]?.exit();
    await flush();
    expect(spawner.spawned).toHaveLength(2);
    pool.close();
  });

  it('never hands out a ready child that died while idle, and refills its place', async () => {
    const spawner = createRecordingSpawner();
    const pool = createWarmPool({ size: 2, spawnChild: spawner.spawnChild, logger });
    spawner.spawned[0]?.becomeReady();
    spawner.spawned[1]?.becomeReady();
    await flush();
    spawner.spawned[0]?.exit();
    await flush();
    expect(pool.take()).toBe(spawner.spawned[1]?.child);
    expect(pool.take()).toBe(spawner.spawned[2]?.child);
    expect(pool.take()).toBeUndefined();
    pool.close();
  });

  it('drops a child whose exit is known before its exit handler ran, instead of handing it out', async () => {
    const spawner = createRecordingSpawner();
    const pool = createWarmPool({ size: 2, spawnChild: spawner.spawnChild, logger });
    spawner.spawned[0]?.becomeReady();
    spawner.spawned[1]?.becomeReady();
    await flush();
    spawner.spawned[0]?.markExitedOnly();
    expect(pool.take()).toBe(spawner.spawned[1]?.child);
    expect(pool.take()).toBeUndefined();
    await flush();
    // Both places are refilled: the dropped child's and the taken one's.
    expect(spawner.spawned).toHaveLength(4);
    expect(pool.size).toBe(2);
    pool.close();
  });

  it('stops refilling after repeated start failures', async () => {
    const spawner = createRecordingSpawner();
    const pool = createWarmPool({ size: 1, spawnChild: spawner.spawnChild, logger });
    for (let attempt = 0; attempt < MAX_CONSECUTIVE_SPAWN_FAILURES + 2; attempt += 1) {
      const latest = spawner.spawned.at(-1);
      latest?.failToStart();
      latest?.exit();
      await flush();
    }
    expect(spawner.spawned).toHaveLength(MAX_CONSECUTIVE_SPAWN_FAILURES);
    pool.close();
  });

  it('kills every held child on close and returns nothing afterwards', async () => {
    const spawner = createRecordingSpawner();
    const pool = createWarmPool({ size: 2, spawnChild: spawner.spawnChild, logger });
    pool.close();
    expect(spawner.spawned.map((fake) => fake.record.killed)).toEqual([1, 1]);
    expect(pool.take()).toBeUndefined();
    await flush();
    expect(spawner.spawned).toHaveLength(2);
  });
});
