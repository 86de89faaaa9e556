// @ts-check
// The child-process host's worker program, run with `new Worker(source, { eval: true })` (CommonJS). It spawns
// the Node engine's sandbox children and relays their pipes, so that `child_process.spawn`, which blocks the
// calling thread until the child has forked and exec'd (milliseconds a child, more under load; see
// bench/RESULTS.md), never blocks the host's event loop. It is trusted host code: it splits the
// channel into lines and sizes each up against the line caps (createLineSplitter and measureJsonText, embedded
// from their source text), so the parent's thread only parses and validates (see spawn-sandbox-child.ts). Checked
// JavaScript run as text: scripts/generate-guest-sources.ts inlines it verbatim (src/internal/guest-sources.ts).
//
// Source of the worker program; its `workerData` is `{ splitterSource, measureSource, listFdsSource,
// autogroupSource, niceIncrement, channelFd }` (fds 0 to 3 of a child are pipes, the channel one of them).
// Messages in: `spawn` (`{ op, id, command, args, argv0?, binaryPath?, closeFds?, slots, maxLineBytes,
// maxMembers, maxDepth }`, `slots` a SharedArrayBuffer of two Int32: [0] the child's pid once spawned, [1] set
// by the parent to kill it), `write` (`{ op, id, text }`), `pause`/`resume`/`kill` (`{ op, id }`).
// Messages out: `line` (`{ op, id, line, bytes, measured }`, `measured` when the line is within the caps),
// `overflow` (`{ op, id, bytes }`, a line past `maxLineBytes`: nothing more of the channel follows), `output`
// (`{ op, id, fd, bytes, text? }`, text for stderr only), `error` (`{ op, id, message }`), `close`
// (`{ op, id, code, signal }`, the last of a child).
'use strict';
const threads = require('node:worker_threads');
// A worker program: it always has a parent port.
const parentPort = /** @type {import('node:worker_threads').MessagePort} */ (threads.parentPort);
const workerData = threads.workerData;
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const { closeSync, openSync } = fs;
const PID_SLOT = 0;
const KILL_SLOT = 1;
const children = new Map();
const CHANNEL_FD = /** @type {3} */ (workerData.channelFd); // build-child-bootstrap.ts's CHANNEL_FD
const createLineSplitter = new Function('return (' + workerData.splitterSource + ')')();
const measureJsonText = new Function('return (' + workerData.measureSource + ')')();
const listInheritableFds = new Function('return (' + workerData.listFdsSource + ')')();
const lowerAutogroupPriority = new Function('return (' + workerData.autogroupSource + ')')();
// A child's autogroup lowered while the kernel said busy is tried again this often, this many times.
const AUTOGROUP_RETRY_MS = 100;
const AUTOGROUP_ATTEMPTS = 5;

function post(message) {
  parentPort.postMessage(message);
}

function killGroup(child) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch (_) {
    try { child.kill('SIGKILL'); } catch (_) { /* already gone */ }
  }
}

// Lowers a child's session below the host's (see lower-thread-priority.ts) as soon as it exists: its start and
// everything after run on the host's terms. A kernel that is busy gets another try while the child lives. This
// thread's nice value (the host's; the child's threads start from it) is the base where the host has no group.
function lowerChild(child, attempt) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const outcome = lowerAutogroupPriority(fs, child.pid, workerData.niceIncrement, os.getPriority());
  if (outcome === 'busy' && attempt + 1 < AUTOGROUP_ATTEMPTS) {
    setTimeout(function () { lowerChild(child, attempt + 1); }, AUTOGROUP_RETRY_MS).unref();
  }
}

// The spawn's arguments with the list of fds the child is to close in place of its marker, listed now: an fd
// opened without close-on-exec since the last spawn is on it.
function argsWithCloseFds(message) {
  if (message.closeFds === undefined) return message.args;
  const first = message.closeFds.first;
  const listed = first.concat(listInheritableFds(fs, process.platform).filter(function (fd) { return first.indexOf(fd) === -1; }));
  const text = JSON.stringify(listed);
  return message.args.map(function (arg) { return arg.indexOf(message.closeFds.marker) === -1 ? arg : arg.replace(message.closeFds.marker, text); });
}

function start(message) {
  const id = message.id;
  const slots = new Int32Array(message.slots);
  let binaryFd;
  try {
    binaryFd = message.binaryPath === undefined ? undefined : openSync(message.binaryPath, 'r');
  } catch (_) {
    // Spawning fails on its own then (nothing to exec on the binary's fd), and the child exits before ready.
  }
  // fds 0 to 3 are pipes (stdio below).
  /** @type {Omit<import('node:child_process').ChildProcess, 'stdio'> & { stdio: [import('node:stream').Writable, import('node:stream').Readable, import('node:stream').Readable, import('node:stream').Duplex] }} */
  let child;
  try {
    child = /** @type {any} */ (spawn(message.command, argsWithCloseFds(message), {
      stdio: message.binaryPath === undefined ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe', 'pipe', binaryFd === undefined ? 'ignore' : binaryFd],
      detached: true,
      env: {},
      cwd: '/',
      windowsHide: true,
      ...(message.argv0 === undefined ? {} : { argv0: message.argv0 }),
    }));
  } catch (error) {
    if (binaryFd !== undefined) closeSync(binaryFd);
    post({ op: 'error', id, message: String(error && error.message) });
    post({ op: 'close', id, code: null, signal: null });
    return;
  }
  if (binaryFd !== undefined) closeSync(binaryFd);
  // The pid is published before the kill flag is read, and the parent sets the flag before it reads the pid:
  // whichever comes second sees the other's write, so a kill the parent asked for while this spawn ran is done.
  if (child.pid !== undefined) Atomics.store(slots, PID_SLOT, child.pid);
  if (child.pid !== undefined) lowerChild(child, 0);
  const entry = { child, closed: false };
  children.set(id, entry);
  if (Atomics.load(slots, KILL_SLOT) === 1) killGroup(child);
  const splitter = createLineSplitter({
    maxLineBytes: message.maxLineBytes,
    onOverflow: function (bytes) {
      post({ op: 'overflow', id, bytes });
    },
    onLine: function (line, bytes) {
      post({ op: 'line', id, line, bytes, measured: measureJsonText(line, message.maxMembers, message.maxDepth) === 0 });
    },
  });
  child.stdio[CHANNEL_FD].on('data', function (chunk) {
    splitter.push(chunk);
  });
  child.stdio[1].on('data', function (chunk) {
    post({ op: 'output', id, fd: 1, bytes: chunk.length });
  });
  child.stdio[2].on('data', function (chunk) {
    post({ op: 'output', id, fd: 2, bytes: chunk.length, text: chunk.toString('utf8') });
  });
  // A dead child's stdin raises EPIPE; its close reports the death.
  child.stdio[0].on('error', function () {});
  child.stdio[CHANNEL_FD].on('error', function () {});
  child.on('error', function (error) {
    post({ op: 'error', id, message: String(error && error.message) });
  });
  // 'close' waits for every pipe to drain, so it comes after the last channel chunk.
  child.on('close', function (code, signal) {
    if (entry.closed) return;
    entry.closed = true;
    children.delete(id);
    post({ op: 'close', id, code, signal });
  });
}

parentPort.on('message', function (message) {
  if (message.op === 'spawn') return start(message);
  const entry = children.get(message.id);
  if (entry === undefined) return;
  const child = entry.child;
  if (message.op === 'write') {
    if (child.stdin.writable) child.stdin.write(message.text);
  } else if (message.op === 'pause') child.stdio[CHANNEL_FD].pause();
  else if (message.op === 'resume') child.stdio[CHANNEL_FD].resume();
  else if (message.op === 'kill') killGroup(child);
});
