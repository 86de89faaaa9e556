// The QuickJS engine on the parent's side: worker threads that each run one body at a time in a fresh QuickJS
// runtime and context (see quickjs-worker-source.ts), handed to runs as `SandboxChild`s so that the warm pool and
// `executeRun` (every budget, result and error code) are the same for both engines. The WebAssembly module is
// compiled once per process and shared by every worker; the process's tier-up moves it to optimised code early.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { RunnerLimits } from '../types.js';
import { realmLimits } from './build-child-bootstrap.js';
import { createLineSplitter } from './create-line-splitter.js';
import { createPacedQueue } from './create-paced-queue.js';
import { lowerThreadPriority, SANDBOX_NICE_INCREMENT } from './lower-thread-priority.js';
import { measureJsonText } from './measure-json-text.js';
import { parseChildMessage } from './parse-child-message.js';
import { QUICKJS_WORKER_SOURCE, REALM_RUNTIME_SOURCE } from './guest-sources.js';
import { quickJsTierUp, startQuickJsTierUp, stopQuickJsTierUp, TIER_UP_CONTEXTS, TIER_UP_NICE_INCREMENT, TIER_UP_QUIET_MS } from './start-quickjs-tier-up.js';
import { maxChannelLineBytes, type ChildExit, type ChildReadiness, type SandboxChild, type SandboxChildListener } from './spawn-sandbox-child.js';

/** How long a worker may take to give a run's context back after it was told to; then it is terminated. */
export const RELEASE_GRACE_MS = 1_000;

/** The worker's own backstop deadline for a body: past the longest allowed run, so the parent's timer decides. */
const WORKER_DEADLINE_MS = 61_000;

/** The V8 heap and stack of a worker (not its WebAssembly memory, which QuickJS's memory limit bounds). */
// The stack is generous because QuickJS's own stack check (512 KiB of its stack) must trip before V8's: some of
// its C paths (JSON.stringify of a deeply nested value) use far more native stack per level than calls do.
const WORKER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32, stackSizeMb: 32 };

const require = createRequire(import.meta.url);

/** A compiled WebAssembly module (opaque here: the worker instantiates it). The lib in use has no WebAssembly types. */
type CompiledWasmModule = object;
const wasmApi = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasmModule> } }).WebAssembly;

interface QuickJsPackages {
  corePath: string;
  variantPath: string;
  version: string;
  wasmModule: Promise<CompiledWasmModule>;
}

let packages: QuickJsPackages | undefined;

/** Locates the QuickJS packages and compiles the WebAssembly module once per process. Throws when missing. */
export function loadQuickJsPackages(): QuickJsPackages {
  if (packages === undefined) {
    const corePath = require.resolve('quickjs-emscripten-core');
    const variantPath = require.resolve('@jitl/quickjs-wasmfile-release-sync');
    const wasmPath = require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
    const manifest = JSON.parse(readFileSync(join(dirname(corePath), '..', 'package.json'), 'utf8')) as { version: string };
    packages = {
      corePath,
      variantPath,
      version: `quickjs-emscripten ${manifest.version}`,
      wasmModule: wasmApi.compile(readFileSync(wasmPath)),
    };
  }
  return packages;
}

/** What the worker program receives as `workerData`. */
export interface QuickJsWorkerData {
  corePath: string;
  variantPath: string;
  version: string;
  wasmModule: CompiledWasmModule;
  /** Two Int32 slots: [0] set by the parent to stop the body, [1] set by the worker as it starts the body. */
  abortFlag: SharedArrayBuffer;
  runtimeSource: string;
  measureSource: string;
  /** `lowerThreadPriority`'s source and its increment, applied to the worker's thread as it starts. */
  lowerPrioritySource: string;
  niceIncrement: number;
  limits: RunnerLimits & { timeoutMs: number };
  /** Maximum WebAssembly memory of one instance, in 64 KiB pages. */
  memoryPages: number;
  realmLimits: ReturnType<typeof realmLimits>;
  escapedForTests: boolean;
  /** Non-zero for the process's tier-up worker only: the throwaway contexts it runs its loop in, serving no run. */
  tierUpContexts: number;
}

type WorkerEvent =
  | { kind: 'started' }
  /** `measured`: the worker sized up the realm's JSON in the line and found it within the caps. */
  | { kind: 'line'; line: string; bytes: number; measured: boolean }
  | { kind: 'chunk'; text: string }
  | { kind: 'released'; replaced: boolean }
  | { kind: 'fatal'; reason: string };

interface EngineWorker {
  worker: Worker;
  abortFlag: Int32Array;
  started: Promise<boolean>;
  onEvent?: ((event: WorkerEvent) => void) | undefined;
  onExit?: ((reason: string) => void) | undefined;
  dead: boolean;
}

/** Slots of a worker's shared flags (`QuickJsWorkerData.abortFlag`). */
const ABORT_SLOT = 0;
const STARTED_SLOT = 1;

/** WebAssembly memory of one QuickJS instance: the heap limit plus 32 MiB for QuickJS itself and its stack. */
export function wasmMemoryPages(heapMb: number): number {
  return Math.ceil(((heapMb + 32) * 1024 * 1024) / 65_536);
}

/** Options of `createQuickJsEngine`. */
export interface QuickJsEngineOptions {
  limits: RunnerLimits;
  logger: Logger;
  /** Idle workers kept for later runs; more are started when runs overlap, and ended when they finish. */
  idleWorkers: number;
  /** Test-only: the body gets `writeChannel(text)`, as code that broke out of QuickJS could write raw lines. */
  escapedForTests?: boolean;
}

/** The QuickJS engine of one runner. */
export interface QuickJsEngine {
  /** A run's sandbox: an idle (or new) worker preparing a fresh runtime and context. */
  lease(): SandboxChild;
  /** Terminates every worker. */
  close(): void;
  /** Counters for tests and the bench: workers started and terminated, WebAssembly instances replaced. */
  readonly stats: { workersStarted: number; workersTerminated: number; instancesReplaced: number };
}

/** Creates the engine; workers start on the first lease. */
export function createQuickJsEngine(options: QuickJsEngineOptions): QuickJsEngine {
  const quickjs = loadQuickJsPackages();
  const idle: EngineWorker[] = [];
  const all = new Set<EngineWorker>();
  // Workers giving a finished run's context back: a lease waits for one of them rather than start a new worker.
  const releasing = new Set<EngineWorker>();
  const waiters: Array<(handle: EngineWorker | undefined) => void> = [];
  const stats = { workersStarted: 0, workersTerminated: 0, instancesReplaced: 0 };
  let closed = false;
  // The tier-up's notion of quiet: how many leases are busy (from the lease until its context is ready, and from
  // its run until its end; a ready context that waits for its run, as a pooled one does, is not busy), and when
  // a lease last became busy or stopped being busy.
  let busyLeases = 0;
  let lastActivityAt = 0;
  let tierUpTimer: ReturnType<typeof setTimeout> | undefined;

  function terminate(handle: EngineWorker): void {
    stats.workersTerminated += 1;
    void handle.worker.terminate();
  }

  async function workerDataOf(abortFlag: SharedArrayBuffer): Promise<QuickJsWorkerData> {
    return {
      corePath: quickjs.corePath,
      variantPath: quickjs.variantPath,
      version: quickjs.version,
      wasmModule: await quickjs.wasmModule,
      abortFlag,
      runtimeSource: REALM_RUNTIME_SOURCE,
      measureSource: String(measureJsonText),
      lowerPrioritySource: String(lowerThreadPriority),
      niceIncrement: SANDBOX_NICE_INCREMENT,
      limits: { ...options.limits, timeoutMs: WORKER_DEADLINE_MS },
      memoryPages: wasmMemoryPages(options.limits.heapMb),
      realmLimits: realmLimits(options.limits),
      escapedForTests: options.escapedForTests === true,
      tierUpContexts: 0,
    };
  }

  // The process's tier-up (see start-quickjs-tier-up.ts) starts once no lease of this engine has been busy for a
  // while (busyLeases, lastActivityAt).
  function tierUpWhenQuiet(workerData: QuickJsWorkerData): void {
    if (tierUpTimer !== undefined || closed || quickJsTierUp().state !== 'idle') return;
    const check = () => {
      tierUpTimer = undefined;
      if (closed) return;
      const quietMs = busyLeases > 0 ? 0 : performance.now() - lastActivityAt;
      if (quietMs < TIER_UP_QUIET_MS) {
        tierUpTimer = setTimeout(check, TIER_UP_QUIET_MS - quietMs).unref();
        return;
      }
      startQuickJsTierUp(engine, QUICKJS_WORKER_SOURCE, () => ({
        eval: true,
        workerData: { ...workerData, abortFlag: new SharedArrayBuffer(8), escapedForTests: false, niceIncrement: TIER_UP_NICE_INCREMENT, tierUpContexts: TIER_UP_CONTEXTS },
        env: {},
        stdout: true,
        stderr: true,
        resourceLimits: WORKER_RESOURCE_LIMITS,
      }));
    };
    tierUpTimer = setTimeout(check, TIER_UP_QUIET_MS).unref();
  }

  async function startWorker(): Promise<EngineWorker> {
    const abortFlag = new SharedArrayBuffer(8);
    const workerData = await workerDataOf(abortFlag);
    tierUpWhenQuiet(workerData);
    const worker = new Worker(QUICKJS_WORKER_SOURCE, {
      eval: true,
      workerData,
      env: {},
      stdout: true,
      stderr: true,
      resourceLimits: WORKER_RESOURCE_LIMITS,
    });
    // The worker prints nothing on purpose; whatever it might is dropped rather than mixed into the host's output.
    worker.stdout.resume();
    worker.stderr.resume();
    const handle: EngineWorker = { worker, abortFlag: new Int32Array(abortFlag), started: Promise.resolve(false), dead: false };
    handle.started = new Promise<boolean>((resolve) => {
      worker.on('message', (event: WorkerEvent) => {
        if (event.kind === 'started') return resolve(true);
        handle.onEvent?.(event);
      });
      const gone = (reason: string) => {
        if (handle.dead) return;
        handle.dead = true;
        all.delete(handle);
        if (releasing.delete(handle)) waiters.shift()?.(undefined);
        const index = idle.indexOf(handle);
        if (index !== -1) idle.splice(index, 1);
        resolve(false);
        handle.onExit?.(reason);
      };
      worker.on('error', (error) => gone(`the QuickJS worker failed: ${error.message}`));
      worker.on('exit', (code) => gone(`the QuickJS worker exited with code ${code}`));
    });
    all.add(handle);
    stats.workersStarted += 1;
    return handle;
  }

  function takeWorker(): Promise<EngineWorker> {
    const reused = idle.pop();
    if (reused !== undefined) return Promise.resolve(reused);
    if (releasing.size > waiters.length) {
      return new Promise<EngineWorker | undefined>((resolve) => waiters.push(resolve)).then((handle) => handle ?? startWorker());
    }
    return startWorker();
  }

  function giveBack(handle: EngineWorker): void {
    releasing.delete(handle);
    handle.onEvent = undefined;
    handle.onExit = undefined;
    if (closed || handle.dead) {
      terminate(handle);
      waiters.shift()?.(undefined);
      return;
    }
    const waiter = waiters.shift();
    if (waiter !== undefined) return waiter(handle);
    if (idle.length >= options.idleWorkers) return terminate(handle);
    handle.worker.unref();
    idle.push(handle);
  }

  function lease(): SandboxChild {
    let listener: SandboxChildListener | undefined;
    let isReady = false;
    let hasExited = false;
    let released = false;
    let busy = false;
    function setBusy(next: boolean): void {
      if (busy === next) return;
      busy = next;
      busyLeases += next ? 1 : -1;
      lastActivityAt = performance.now();
    }
    setBusy(true);
    // 'prepare' was posted. A lease killed before that has nothing in the worker to release: the worker is
    // given back once it has started (below), and a 'release' sent meanwhile would come back as a stray
    // 'released' to whichever lease holds the worker by then.
    let prepared = false;
    let referenced = false;
    let handle: EngineWorker | undefined;
    let resolveReady!: (readiness: ChildReadiness) => void;
    let resolveExited!: (exit: ChildExit) => void;
    const ready = new Promise<ChildReadiness>((resolve) => (resolveReady = resolve));
    const exited = new Promise<ChildExit>((resolve) => (resolveExited = resolve));
    let releaseTimer: ReturnType<typeof setTimeout> | undefined;

    // The worker does not post the Node child's 'started' line: it sets a flag before the body runs, and the
    // run learns of it here, before the first line after it and before the worker's end.
    let startedDelivered = false;
    function deliverStarted(): void {
      if (startedDelivered || !isReady || handle === undefined || Atomics.load(handle.abortFlag, STARTED_SLOT) !== 1) return;
      startedDelivered = true;
      listener?.onMessage({ type: 'started' }, 0);
    }

    function end(exit: ChildExit): void {
      if (hasExited) return;
      hasExited = true;
      setBusy(false);
      if (releaseTimer !== undefined) clearTimeout(releaseTimer);
      deliverStarted();
      if (!isReady) resolveReady({ ok: false, reason: exit.stderrTail || 'the QuickJS worker ended before it was ready', cause: 'exited' });
      listener?.onExit(exit);
      resolveExited(exit);
    }

    function protocolError(reason: string): void {
      lines.stop();
      kill();
      if (!isReady) resolveReady({ ok: false, reason: `protocol error before ready: ${reason}`, cause: 'protocol' });
      else listener?.onProtocolError(reason);
    }

    function onLine(line: string, bytes: number, measured: boolean): void {
      const parsed = parseChildMessage(line, { measured });
      if (!parsed.ok) return protocolError(parsed.reason);
      const message = parsed.message;
      if (!isReady) {
        if (message.type !== 'ready') return protocolError(`expected ready, got ${message.type}`);
        isReady = true;
        setBusy(false);
        return resolveReady({ ok: true, version: message.version });
      }
      if (message.type === 'ready' || message.type === 'refused') return protocolError(`unexpected ${message.type}`);
      if (listener === undefined) return protocolError(`${message.type} from an idle sandbox`);
      deliverStarted();
      listener.onMessage(message, bytes);
    }

    const lines = createPacedQueue<{ line: string; bytes: number; measured: boolean }>({
      handle: (entry) => onLine(entry.line, entry.bytes, entry.measured),
    });
    // Raw text a test-only escaped body wrote: split and measured like the Node child's fd 3.
    const rawLines = createLineSplitter({
      maxLineBytes: maxChannelLineBytes(options.limits),
      onOverflow: (bytes) => protocolError(`a channel line exceeded ${maxChannelLineBytes(options.limits)} bytes (${bytes} buffered)`),
      onLine: (line, bytes) => lines.push({ line, bytes, measured: false }),
    });

    function onEvent(event: WorkerEvent): void {
      if (hasExited) return;
      switch (event.kind) {
        case 'line':
          return lines.push({ line: event.line, bytes: event.bytes, measured: event.measured });
        case 'chunk':
          return rawLines.push(Buffer.from(event.text, 'utf8'));
        case 'released':
          if (event.replaced) stats.instancesReplaced += 1;
          if (handle !== undefined) giveBack(handle);
          return lines.afterDrain(() => end({ code: 0, signal: null, stderrTail: '' }));
        case 'fatal':
          return lines.afterDrain(() => {
            if (handle !== undefined) terminate(handle);
            end({ code: 1, signal: null, stderrTail: event.reason });
          });
        case 'started':
          return;
      }
    }

    function kill(): void {
      if (released || hasExited) return;
      released = true;
      if (handle === undefined) return;
      // Stops a body busy in QuickJS at its next interrupt check, then asks for the context back.
      releasing.add(handle);
      Atomics.store(handle.abortFlag, ABORT_SLOT, 1);
      // A worker still starting holds no context and was asked for none: it is given back as it finishes
      // starting (below), however long that takes on a busy machine. The grace is for giving a context back;
      // timed from here it terminated workers that were merely slow to start (their warm-up runs at the
      // sandbox's lowered priority), and the next lease paid for a new one.
      if (!prepared) return;
      handle.worker.postMessage({ type: 'release' });
      const current = handle;
      releaseTimer = setTimeout(() => {
        options.logger.warn({ graceMs: RELEASE_GRACE_MS }, 'QuickJS worker did not give its context back; terminating it');
        terminate(current);
      }, RELEASE_GRACE_MS);
      releaseTimer.unref();
    }

    void takeWorker().then(
      async (taken) => {
        handle = taken;
        handle.onEvent = onEvent;
        handle.onExit = (reason) => lines.afterDrain(() => end({ code: 1, signal: null, stderrTail: reason }));
        if (referenced) handle.worker.ref();
        else handle.worker.unref();
        if (!(await handle.started)) return;
        if (released) {
          // Killed before it was even prepared: give the worker back without a context.
          giveBack(handle);
          return end({ code: 0, signal: null, stderrTail: '' });
        }
        Atomics.store(handle.abortFlag, ABORT_SLOT, 0);
        prepared = true;
        handle.worker.postMessage({ type: 'prepare' });
      },
      (error: unknown) => end({ code: 1, signal: null, stderrTail: `the QuickJS worker could not start: ${(error as Error).message}` }),
    );

    return {
      pid: undefined,
      ready,
      exited,
      get hasExited() {
        return hasExited;
      },
      attach(next) {
        listener = next;
      },
      send(message) {
        if (hasExited || released || handle === undefined) return;
        if ((message as { type?: unknown }).type === 'run') setBusy(true);
        handle.worker.postMessage(message);
      },
      kill,
      unref() {
        referenced = false;
        handle?.worker.unref();
      },
      ref() {
        referenced = true;
        handle?.worker.ref();
      },
    };
  }

  const engine: QuickJsEngine = {
    lease,
    close() {
      closed = true;
      clearTimeout(tierUpTimer);
      stopQuickJsTierUp(engine);
      for (const handle of all) void handle.worker.terminate();
      all.clear();
      idle.length = 0;
      releasing.clear();
      for (const waiter of waiters.splice(0)) waiter(undefined);
    },
    stats,
  };
  return engine;
}
