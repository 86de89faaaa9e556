// Drives one run: sends the code to a child, answers bridge calls, enforces every budget in the parent (the child
// is untrusted), and turns whatever happens first into a RunResult. The child is killed at the end. A child that
// dies before it says `started` (a pooled child killed while idle, say) ran no model code, so the run moves to
// one fresh child (`replaceChild`); a death after `started` is `crashed`, never a second run of the body.
import type { Logger } from 'pino';
import type { ChildMessage } from '../schemas.js';
import type { Bridge, BridgeContext, RunErrorCode, RunLog, RunnerLimits, RunResult, RunStats } from '../types.js';
import { CALL_ENVELOPE_BYTES, DONE_ENVELOPE_BYTES, type ChildExit, type SandboxChild } from './spawn-sandbox-child.js';

/** How many times a run moves to a fresh child when its child dies before starting the body. */
export const MAX_CHILD_REPLACEMENTS = 1;

/** Options of `executeRun`. */
export interface ExecuteRunOptions {
  child: SandboxChild;
  /**
   * Spawns a fresh child for a run whose child died before it started the body (at most
   * `MAX_CHILD_REPLACEMENTS` times). Without it, such a death is `crashed` (the probe's canary).
   */
  replaceChild?: () => SandboxChild;
  code: string;
  bridge: Bridge;
  timeoutMs: number;
  /** The caller's signal: its abort ends the run as `aborted`. */
  signal?: AbortSignal | undefined;
  /** The runner's runs in progress: the run is in it until it ends, and calling its entry ends it as `aborted`. */
  openRuns?: Set<(message: string) => void>;
  limits: RunnerLimits;
  /** The first child came from the warm pool (a replacement child never does). */
  warm: boolean;
  /** `performance.now()` when `run()` was called. */
  startedAt: number;
  logger: Logger;
  /** The run's number in its runner, for log lines. */
  runId?: number;
}

type CallMessage = Extract<ChildMessage, { type: 'call' }>;

/** What V8 prints on stderr when it gives up at the heap limit. */
const OUT_OF_MEMORY_PATTERN = /JavaScript heap out of memory|Reached heap limit|Fatal JavaScript out of memory/i;

/** Signals and exit codes of a V8 abort: SIGABRT/SIGTRAP directly, 134/133 through a shell. */
const ABORT_SIGNALS = new Set<NodeJS.Signals>(['SIGABRT', 'SIGTRAP']);
const ABORT_EXIT_CODES = new Set([133, 134]);

/**
 * Describes a child's death for a `crashed` result. V8's out-of-memory abort is recognised by what it prints,
 * because under the OS layer the child is pid 1 of its namespace: the kernel ignores the SIGABRT that pid 1
 * sends itself, so abort() falls through to a trap and the death shows as SIGSEGV or SIGILL instead.
 */
export function describeCrash(exit: ChildExit, heapMb: number): string {
  const how = exit.signal === null ? `exited with code ${exit.code}` : `was killed by ${exit.signal}`;
  const outOfMemory =
    OUT_OF_MEMORY_PATTERN.test(exit.stderrTail) ||
    (exit.signal !== null && ABORT_SIGNALS.has(exit.signal)) ||
    (exit.code !== null && ABORT_EXIT_CODES.has(exit.code));
  const heapHint = outOfMemory ? ` (most likely out of memory: the heap limit is ${heapMb} MB)` : '';
  return `the sandbox child ${how} before the body finished${heapHint}`;
}

function errorMessageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  try {
    return String(error);
  } catch {
    return 'the bridge handler failed';
  }
}

/** Runs `code` on `child` and resolves with the outcome; never rejects. */
export function executeRun(options: ExecuteRunOptions): Promise<RunResult> {
  const { limits, bridge } = options;
  let child = options.child;
  let warm = options.warm;
  let replacements = 0;
  const logs: RunLog[] = [];
  const calls: RunStats['calls'] = { search: 0, describe: 0, call: 0 };
  // One controller per call, each aborted when the run ends: a handler that listens on its signal adds a listener
  // to a signal of its own call, never to one shared by every call of the run (which, past 10 listeners, makes
  // Node warn about a leak). The run adds no listener to them at all.
  const callControllers: AbortController[] = [];
  // One reason for every call signal of the run: each default reason would be a DOMException of its own, with a stack.
  let runEnded: DOMException | undefined;
  const runEndedReason = () => (runEnded ??= new DOMException('the run ended', 'AbortError'));
  let outputBytes = 0;
  let inFlight = 0;
  let finished = false;
  // Per child: the readiness handler ran with `ok`, the `run` line was sent, the child said `started`.
  let childReady = false;
  let runSent = false;
  let started = false;
  let resolveResult!: (result: RunResult) => void;
  const resultPromise = new Promise<RunResult>((resolve) => (resolveResult = resolve));

  function stats(): RunStats {
    return {
      wallTimeMs: Math.round((performance.now() - options.startedAt) * 100) / 100,
      calls: { ...calls },
      warm,
    };
  }

  function finish(outcome: { ok: true; value: unknown } | { ok: false; code: RunErrorCode; message: string }): void {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    options.openRuns?.delete(onRunnerClose);
    // Every late message from here on is dropped: the listener is detached and the child killed.
    child.attach({ onMessage() {}, onProtocolError() {}, onOutput() {}, onExit() {} });
    child.kill();
    child.unref();
    for (const controller of callControllers) controller.abort(runEndedReason());
    const result: RunResult = outcome.ok
      ? { ok: true, value: outcome.value, logs, stats: stats() }
      : { ok: false, error: { code: outcome.code, message: outcome.message }, logs, stats: stats() };
    options.logger.debug(
      { runId: options.runId, ok: result.ok, code: result.ok ? undefined : result.error.code, wallTimeMs: result.stats.wallTimeMs },
      'run finished',
    );
    resolveResult(result);
  }

  function fail(code: RunErrorCode, message: string): void {
    finish({ ok: false, code, message });
  }

  function countOutput(bytes: number): boolean {
    outputBytes += bytes;
    if (outputBytes <= limits.outputBytes) return true;
    fail('output_limit', `the run produced more than ${limits.outputBytes} bytes of output`);
    return false;
  }

  function invokeHandler(message: CallMessage, context: BridgeContext): unknown {
    switch (message.method) {
      case 'search':
        return bridge.search(message.args[0], message.args[1] ?? undefined, context);
      case 'describe':
        return bridge.describe(message.args[0], context);
      case 'call':
        return bridge.call(message.args[0], message.args[1], context);
    }
  }

  function reply(id: number, outcome: { ok: true; value: unknown } | { ok: false; message: string }): void {
    if (finished) return;
    inFlight -= 1;
    if (!outcome.ok) return child.send({ type: 'reply', id, ok: false, message: outcome.message });
    let json: string | undefined;
    try {
      json = JSON.stringify(outcome.value);
    } catch (error) {
      return child.send({ type: 'reply', id, ok: false, message: `the bridge result is not JSON-serializable: ${errorMessageOf(error)}` });
    }
    child.send(json === undefined ? { type: 'reply', id, ok: true } : { type: 'reply', id, ok: true, json });
  }

  function onCall(message: CallMessage, lineBytes: number): void {
    // The realm refuses larger arguments, so only a forged call gets here; it is no more capable than a real one.
    // (Members and depth were measured before the line was parsed.)
    if (lineBytes > limits.resultBytes + CALL_ENVELOPE_BYTES) {
      return fail('protocol', `a call carried ${lineBytes} bytes; arguments are limited to ${limits.resultBytes}`);
    }
    const total = calls.search + calls.describe + calls.call;
    if (total >= limits.toolCalls) return fail('too_many_calls', `the body made more than ${limits.toolCalls} tool calls`);
    if (inFlight >= limits.inFlightCalls) {
      return fail('too_many_calls', `the body had more than ${limits.inFlightCalls} tool calls in flight`);
    }
    calls[message.method] += 1;
    inFlight += 1;
    // Made when the handler first reads it (an AbortController costs more than the rest of a call's handling);
    // one read after the run ended is aborted already.
    let controller: AbortController | undefined;
    const context: BridgeContext = {
      get signal() {
        if (controller === undefined) {
          controller = new AbortController();
          if (finished) controller.abort(runEndedReason());
          else callControllers.push(controller);
        }
        return controller.signal;
      },
    };
    Promise.resolve()
      .then(() => invokeHandler(message, context))
      .then(
        (value) => reply(message.id, { ok: true, value }),
        (error: unknown) => reply(message.id, { ok: false, message: errorMessageOf(error) }),
      );
  }

  function onLog(message: Extract<ChildMessage, { type: 'log' }>): void {
    const bytes = Buffer.byteLength(message.text, 'utf8');
    if (bytes > limits.logLineBytes) {
      return fail('output_limit', `a log line of ${bytes}+ bytes exceeds the ${limits.logLineBytes}-byte limit`);
    }
    if (logs.length >= limits.logLines) return fail('output_limit', `the body wrote more than ${limits.logLines} log lines`);
    if (countOutput(bytes)) logs.push({ level: message.level, text: message.text });
  }

  function onDone(message: Extract<ChildMessage, { type: 'done' }>, lineBytes: number): void {
    if (!message.ok) return fail(message.code, message.message);
    // The realm refuses larger results; a forged one is no larger than a real one may be.
    if (lineBytes > limits.resultBytes + DONE_ENVELOPE_BYTES) {
      return fail('result_too_large', `the result line is ${lineBytes} bytes; results are limited to ${limits.resultBytes}`);
    }
    finish({ ok: true, value: message.value });
  }

  function onAbort(): void {
    fail('aborted', 'the run was aborted by its caller');
  }

  function onRunnerClose(message: string): void {
    fail('aborted', message);
  }

  const timer = setTimeout(() => fail('timeout', `the run exceeded its ${options.timeoutMs} ms timeout`), options.timeoutMs);

  /** The current child died (or could not start) before it said `started`: no model code ran in it. */
  function onLostBeforeStart(reason: string): void {
    if (options.replaceChild === undefined || replacements >= MAX_CHILD_REPLACEMENTS) return fail('crashed', reason);
    replacements += 1;
    options.logger.warn({ runId: options.runId, reason, replacements }, 'sandbox child died before starting the body; retrying on a fresh child');
    const lost = child;
    lost.attach({ onMessage() {}, onProtocolError() {}, onOutput() {}, onExit() {} });
    lost.kill();
    lost.unref();
    let fresh: SandboxChild;
    try {
      fresh = options.replaceChild();
    } catch (error) {
      return fail('crashed', `${reason}; no fresh child could be spawned: ${errorMessageOf(error)}`);
    }
    child = fresh;
    warm = false;
    childReady = false;
    runSent = false;
    started = false;
    assign(fresh);
  }

  /** Hands the run to `current`: listens to it, and sends the code once it is ready. */
  function assign(current: SandboxChild): void {
    // Events of a child this run has let go of (a replaced one) are ignored.
    const isCurrent = () => !finished && current === child;
    current.ref();
    current.attach({
      onMessage(message, lineBytes) {
        if (!isCurrent()) return;
        if (message.type === 'started') {
          if (!runSent || started) return fail('protocol', 'the sandbox child broke the channel protocol: unexpected started');
          started = true;
          return;
        }
        // A real child says `started` before anything else: the body cannot have run yet.
        if (!started) return fail('protocol', `the sandbox child broke the channel protocol: ${message.type} before started`);
        if (message.type === 'call') onCall(message, lineBytes);
        else if (message.type === 'log') onLog(message);
        else if (message.type === 'done') onDone(message, lineBytes);
      },
      onProtocolError(reason) {
        if (isCurrent()) fail('protocol', `the sandbox child broke the channel protocol: ${reason}`);
      },
      onOutput(bytes) {
        if (isCurrent()) countOutput(bytes);
      },
      onExit(exit) {
        // Before `ready`, the readiness handler below reports the death with the child's own reason.
        if (!isCurrent() || !childReady) return;
        if (started) return fail('crashed', describeCrash(exit, limits.heapMb));
        const how = exit.signal === null ? `exited with code ${exit.code}` : `was killed by ${exit.signal}`;
        onLostBeforeStart(`the sandbox child ${how} before it started the body`);
      },
    });

    void current.ready.then((readiness) => {
      if (!isCurrent()) return;
      childReady = readiness.ok;
      if (!readiness.ok) {
        if (readiness.cause === 'exited') return onLostBeforeStart(readiness.reason);
        return fail(readiness.cause === 'refused' ? 'unavailable' : 'crashed', readiness.reason);
      }
      runSent = true;
      current.send({ type: 'run', code: options.code });
    });
  }

  if (options.signal?.aborted) onAbort();
  else {
    options.signal?.addEventListener('abort', onAbort, { once: true });
    options.openRuns?.add(onRunnerClose);
    assign(child);
  }

  return resultPromise;
}
