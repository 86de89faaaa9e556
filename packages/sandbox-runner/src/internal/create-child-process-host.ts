// The parent's side of the child-process host (see child-process-host-source.ts): one worker thread per process,
// started on the first spawn, that forks the Node engine's sandbox children so the host's event loop does not
// wait for each fork and exec. A relayed child looks to spawn-sandbox-child.ts like a spawned one whose channel
// is already split into measured lines: lines, output counts and the close arrive as events, in the order the
// worker saw them.
import { Worker } from 'node:worker_threads';
import { CHANNEL_FD } from './build-child-bootstrap.js';
import { CHILD_PROCESS_HOST_SOURCE } from './guest-sources.js';
import { createLineSplitter } from './create-line-splitter.js';
import { listInheritableFds } from './list-inheritable-fds.js';
import { lowerAutogroupPriority, SANDBOX_NICE_INCREMENT } from './lower-thread-priority.js';
import { measureJsonText } from './measure-json-text.js';

/** What a relayed child reports. */
export interface RelayedChildEvents {
  /** A channel line, its length in bytes, and whether it is within the caps the spawn gave (`lineCaps`). */
  onLine(line: string, bytes: number, measured: boolean): void;
  /** A channel line grew past `maxLineBytes`; nothing more of the channel follows. */
  onOverflow(bytes: number): void;
  /** `text` is the decoded chunk for stderr (fd 2), undefined for stdout. */
  onOutput(bytes: number, text: string | undefined): void;
  onError(message: string): void;
  /** The child and every pipe of it closed (or it never started: code and signal null). Always the last event. */
  onClose(code: number | null, signal: NodeJS.Signals | null): void;
}

/** What `child_process.spawn` is given, less what every sandbox child shares (pipes, detached, empty env, cwd `/`). */
export interface RelayedSpawnSpec {
  command: string;
  args: string[];
  argv0?: string | undefined;
  /** Opened read-only and passed to the child as its fd 4 (the OS layer execs the binary from there). */
  binaryPath?: string | undefined;
  /**
   * The fds the child is to close, listed by the worker right before the spawn (`first`, then this process's
   * inheritable fds, see list-inheritable-fds.ts) and written as JSON in place of `marker` in the arguments.
   */
  closeFds?: { marker: string; first: number[] } | undefined;
  /** The longest channel line accepted, in bytes. */
  maxLineBytes: number;
  /** The members and depth a channel line is measured against. */
  lineCaps: { members: number; depth: number };
}

/** A child spawned by the host's worker. */
export interface RelayedChild {
  /** Undefined until the worker has spawned it (or when it could not be). */
  readonly pid: number | undefined;
  write(text: string): void;
  /** SIGKILL to its process group, at once when the pid is known, else as soon as the worker has it. */
  kill(): void;
  pause(): void;
  resume(): void;
  ref(): void;
  unref(): void;
}

const PID_SLOT = 0;
const KILL_SLOT = 1;

interface HostWorker {
  worker: Worker;
  children: Map<number, { events: RelayedChildEvents; killGroup(): boolean }>;
  /** Children currently referenced: the worker holds the host's event loop open while there is one. */
  referenced: number;
}

let host: HostWorker | undefined;
let nextId = 1;

type HostEvent =
  | { op: 'line'; id: number; line: string; bytes: number; measured: boolean }
  | { op: 'overflow'; id: number; bytes: number }
  | { op: 'output'; id: number; fd: number; bytes: number; text?: string }
  | { op: 'error'; id: number; message: string }
  | { op: 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };

function startHost(): HostWorker {
  // The worker prints nothing. (Its stdout and stderr are not taken as streams: a flowing one would hold the
  // host's event loop open past unref.)
  const worker = new Worker(CHILD_PROCESS_HOST_SOURCE, {
    eval: true,
    workerData: {
      splitterSource: String(createLineSplitter),
      measureSource: String(measureJsonText),
      listFdsSource: String(listInheritableFds),
      autogroupSource: String(lowerAutogroupPriority),
      niceIncrement: SANDBOX_NICE_INCREMENT,
      channelFd: CHANNEL_FD,
    },
    env: {},
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
  });
  const started: HostWorker = { worker, children: new Map(), referenced: 0 };
  worker.on('message', (event: HostEvent) => {
    const events = started.children.get(event.id)?.events;
    if (events === undefined) return;
    switch (event.op) {
      case 'line':
        return events.onLine(event.line, event.bytes, event.measured);
      case 'overflow':
        return events.onOverflow(event.bytes);
      case 'output':
        return events.onOutput(event.bytes, event.fd === 2 ? event.text : undefined);
      case 'error':
        return events.onError(event.message);
      case 'close':
        started.children.delete(event.id);
        return events.onClose(event.code, event.signal);
    }
  });
  // Should the worker itself die, every child it relayed is killed here and reported closed (under the OS layer
  // they die with its thread anyway: their parent-death signal is tied to the thread that spawned them).
  const lost = (reason: string) => {
    if (host === started) host = undefined;
    for (const [, child] of started.children) {
      child.killGroup();
      child.events.onError(reason);
      child.events.onClose(null, null);
    }
    started.children.clear();
  };
  worker.on('error', (error) => lost(`the child-process host failed: ${error.message}`));
  worker.on('exit', (code) => lost(`the child-process host exited with code ${code}`));
  // Unref'd after its listeners are attached (attaching one refs it again); a referenced child refs it.
  worker.unref();
  return started;
}

/** Spawns a sandbox child from the host's worker thread. Never throws: a failed spawn is an error and a close. */
export function spawnRelayedChild(spec: RelayedSpawnSpec, events: RelayedChildEvents): RelayedChild {
  host ??= startHost();
  const current = host;
  const id = nextId;
  nextId += 1;
  const slots = new Int32Array(new SharedArrayBuffer(8));
  let referenced = false;
  let closed = false;
  /** SIGKILL to the child's group when its pid is known; false when it is not (or the kill failed). */
  function killGroup(): boolean {
    // See the worker's side: the flag is set before the pid is read.
    Atomics.store(slots, KILL_SLOT, 1);
    const pid = Atomics.load(slots, PID_SLOT);
    if (pid === 0) return false;
    try {
      process.kill(-pid, 'SIGKILL');
      return true;
    } catch {
      // Gone already, or not a group leader.
      return false;
    }
  }
  current.children.set(id, {
    events: {
      ...events,
      onClose(code, signal) {
        closed = true;
        setReferenced(false);
        events.onClose(code, signal);
      },
    },
    killGroup,
  });

  function setReferenced(next: boolean): void {
    if (next === referenced || (next && closed)) return;
    referenced = next;
    current.referenced += next ? 1 : -1;
    if (current.referenced > 0) current.worker.ref();
    else current.worker.unref();
  }

  // A child holds the host's event loop open until it is unref'd, as a spawned one does.
  setReferenced(true);
  current.worker.postMessage({
    op: 'spawn',
    id,
    command: spec.command,
    args: spec.args,
    argv0: spec.argv0,
    binaryPath: spec.binaryPath,
    closeFds: spec.closeFds,
    slots: slots.buffer,
    maxLineBytes: spec.maxLineBytes,
    maxMembers: spec.lineCaps.members,
    maxDepth: spec.lineCaps.depth,
  });
  return {
    get pid() {
      const pid = Atomics.load(slots, PID_SLOT);
      return pid === 0 ? undefined : pid;
    },
    write(text) {
      if (!closed) current.worker.postMessage({ op: 'write', id, text });
    },
    kill() {
      if (closed) return;
      // Otherwise the worker kills it as soon as it has the pid, or by its handle.
      if (!killGroup()) current.worker.postMessage({ op: 'kill', id });
    },
    pause() {
      if (!closed) current.worker.postMessage({ op: 'pause', id });
    },
    resume() {
      if (!closed) current.worker.postMessage({ op: 'resume', id });
    },
    ref() {
      setReferenced(true);
    },
    unref() {
      setReferenced(false);
    },
  };
}

/** Test-only: terminates the host's worker, as if it had died (the next spawn starts a new one). */
export async function terminateChildProcessHostForTests(): Promise<void> {
  await host?.worker.terminate();
}
