// One sandbox child process and its channel: stdin carries parent → child JSON lines, fd 3 carries child →
// parent JSON lines (parsed and validated here), stdout/stderr are only counted and kept as a short tail.
import type { Logger } from 'pino';
import type { ChildMessage } from '../schemas.js';
import type { RunnerLimits } from '../types.js';
import { buildChildBootstrap, CLOSE_FDS_MARKER } from './build-child-bootstrap.js';
import { BINARY_FD, buildSpawnCommand, type OsLayerTools } from './build-spawn-command.js';
import { spawnRelayedChild } from './create-child-process-host.js';
import { createPacedQueue } from './create-paced-queue.js';
import { LINE_CAPS, parseChildMessage } from './parse-child-message.js';

/** How much of stdout/stderr is kept for diagnostics (never parsed, never returned to the body). */
const DIAGNOSTIC_TAIL_BYTES = 2048;

/** Room for the JSON envelope around the largest payload (a result or call arguments), and for escaping. */
const ENVELOPE_BYTES = 64 * 1024;

/** Bytes of a `call` line around its argument tuple (`{"type":"call","id":<16 digits>,"method":"describe","args":}`). */
export const CALL_ENVELOPE_BYTES = 128;

/** Bytes of a `done` line around its value (`{"type":"done","ok":true,"value":}`). */
export const DONE_ENVELOPE_BYTES = 64;

/**
 * The longest channel line accepted. The child measures results and call arguments in UTF-8 bytes before it
 * sends them, and truncates log lines (one UTF-16 unit is at most 6 bytes of JSON, as `\u0000`) and messages,
 * so a legitimate line is at most that plus the envelope; anything longer is a protocol error, detected before
 * it is buffered.
 */
export function maxChannelLineBytes(limits: RunnerLimits): number {
  return Math.max(limits.resultBytes, 6 * (limits.logLineBytes + 1)) + ENVELOPE_BYTES;
}

/** What a run listens to while it owns a child. */
export interface SandboxChildListener {
  /** A validated message and the length of its line in bytes (the parent's bound on what it carried). */
  onMessage(message: ChildMessage, lineBytes: number): void;
  onProtocolError(reason: string): void;
  onOutput(bytes: number): void;
  onExit(exit: ChildExit): void;
}

/** How a child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last bytes of stderr, for logs and probe reasons only. */
  stderrTail: string;
}

/**
 * The result of waiting for the child's self-check. `cause` says why a child is not ready: it `refused` (its
 * self-check found enforcement off), broke the `protocol`, or `exited` (died, or could not be spawned).
 */
export type ChildReadiness = { ok: true; version: string } | { ok: false; reason: string; cause: 'refused' | 'protocol' | 'exited' };

/** A spawned sandbox child. */
export interface SandboxChild {
  readonly pid: number | undefined;
  /** Settles once: the child said `ready`, or refused, broke protocol or died first. */
  readonly ready: Promise<ChildReadiness>;
  readonly exited: Promise<ChildExit>;
  readonly hasExited: boolean;
  /** Hands the channel to a run. Messages before a listener is attached are protocol errors. */
  attach(listener: SandboxChildListener): void;
  send(message: unknown): void;
  /** SIGKILL to the whole process group (and through the OS layer, the whole pid namespace). */
  kill(): void;
  /** Lets an idle child not hold the parent's event loop open (and `ref()` takes that back). */
  unref(): void;
  ref(): void;
}

/** The bootstrap for each runner's limits, built once: it holds no per-child state (the fds come at spawn). */
const BOOTSTRAPS = new Map<string, string>();
/** More distinct limits than this in one process (unusual) and the cache starts over. */
const MAX_CACHED_BOOTSTRAPS = 16;

function cachedBootstrap(limits: RunnerLimits, escapedForTests: boolean): string {
  const key = `${escapedForTests}:${JSON.stringify(limits)}`;
  let bootstrap = BOOTSTRAPS.get(key);
  if (bootstrap === undefined) {
    if (BOOTSTRAPS.size >= MAX_CACHED_BOOTSTRAPS) BOOTSTRAPS.clear();
    bootstrap = buildChildBootstrap({ limits, escapedForTests });
    BOOTSTRAPS.set(key, bootstrap);
  }
  return bootstrap;
}

/** Options of `spawnSandboxChild`. */
export interface SpawnSandboxChildOptions {
  nodePath: string;
  limits: RunnerLimits;
  osLayer: OsLayerTools | undefined;
  dropPrivileges: boolean;
  escapedForTests?: boolean;
  logger: Logger;
}

/** Spawns a child with every layer on: empty env, cwd `/`, its own process group, four pipes and nothing else. */
export function spawnSandboxChild(options: SpawnSandboxChildOptions): SandboxChild {
  // The fds to close are listed by the child-process host right before the spawn (off this thread).
  const bootstrap = cachedBootstrap(options.limits, options.escapedForTests === true);
  const { command, args, argv0, binaryOnFd } = buildSpawnCommand({
    nodePath: options.nodePath,
    bootstrap,
    limits: options.limits,
    osLayer: options.osLayer,
    dropPrivileges: options.dropPrivileges,
  });
  const log = options.logger;

  let listener: SandboxChildListener | undefined;
  let isReady = false;
  let hasExited = false;
  let stderrTail = '';
  let resolveReady!: (readiness: ChildReadiness) => void;
  let resolveExited!: (exit: ChildExit) => void;
  const ready = new Promise<ChildReadiness>((resolve) => (resolveReady = resolve));
  const exited = new Promise<ChildExit>((resolve) => (resolveExited = resolve));

  function kill(): void {
    if (!hasExited) child.kill();
  }

  function protocolError(reason: string): void {
    log.debug({ reason }, 'sandbox child broke protocol');
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
      if (message.type === 'ready') {
        isReady = true;
        resolveReady({ ok: true, version: message.version });
      } else if (message.type === 'refused') {
        kill();
        resolveReady({ ok: false, reason: `the child refused to run: ${message.reason}`, cause: 'refused' });
      } else protocolError(`expected ready, got ${message.type}`);
      return;
    }
    if (message.type === 'ready' || message.type === 'refused') return protocolError(`unexpected ${message.type}`);
    if (listener === undefined) return protocolError(`${message.type} from an idle child`);
    listener.onMessage(message, bytes);
  }

  // Lines are handled in order and paced (see create-paced-queue.ts); while they pile up, fd 3 is not read, so
  // the child blocks on its own writes instead of the parent buffering them.
  const lines = createPacedQueue<{ line: string; bytes: number; measured: boolean }>({
    handle: (entry) => onLine(entry.line, entry.bytes, entry.measured),
    onBacklog(backlogged) {
      if (backlogged) child.pause();
      else child.resume();
    },
  });

  function onGone(code: number | null, signal: NodeJS.Signals | null): void {
    if (hasExited) return;
    hasExited = true;
    const exit: ChildExit = { code, signal, stderrTail };
    log.debug({ code, signal }, 'sandbox child exited');
    if (!isReady) {
      const how = signal === null ? `code ${code}` : `signal ${signal}`;
      resolveReady({
        ok: false,
        reason: `the child exited with ${how} before it was ready${stderrTail ? `: ${stderrTail.trim()}` : ''}`,
        cause: 'exited',
      });
    }
    listener?.onExit(exit);
    resolveExited(exit);
  }

  // Spawned by the child-process host's worker thread: the fork and exec do not hold up this event loop.
  const child = spawnRelayedChild(
    {
      command,
      args,
      argv0,
      binaryPath: binaryOnFd,
      // Under the OS layer fd 4 carries the binary the chain execs: the bootstrap closes it first.
      closeFds: { marker: CLOSE_FDS_MARKER, first: options.osLayer === undefined ? [] : [BINARY_FD] },
      maxLineBytes: maxChannelLineBytes(options.limits),
      lineCaps: LINE_CAPS,
    },
    {
      onLine: (line, bytes, measured) => lines.push({ line, bytes, measured }),
      onOverflow: (bytes) => protocolError(`a channel line exceeded ${maxChannelLineBytes(options.limits)} bytes (${bytes} buffered)`),
      onOutput(bytes, text) {
        if (text !== undefined) stderrTail = (stderrTail + text).slice(-DIAGNOSTIC_TAIL_BYTES);
        listener?.onOutput(bytes);
      },
      onError(message) {
        stderrTail = `${stderrTail}${message}`.slice(-DIAGNOSTIC_TAIL_BYTES);
        onGone(null, null);
      },
      // 'close' waits for every pipe to drain, and the exit is reported after the lines read before it were
      // handled, so a final message written just before death still counts.
      onClose: (code, signal) => lines.afterDrain(() => onGone(code, signal)),
    },
  );

  return {
    get pid() {
      return child.pid;
    },
    ready,
    exited,
    get hasExited() {
      return hasExited;
    },
    attach(next) {
      listener = next;
    },
    send(message) {
      if (!hasExited) child.write(`${JSON.stringify(message)}\n`);
    },
    kill,
    unref() {
      child.unref();
    },
    ref() {
      child.ref();
    },
  };
}
