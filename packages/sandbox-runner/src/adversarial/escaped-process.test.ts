// Adversarial suite, process and OS layers: code that has already escaped the realm. The child is started
// with the test-only bootstrap that hands the body the real `process` and `require`, so every case here is
// stopped by the Node permission model (layer 3) and/or the namespaces and rlimits (layer 4), not the realm.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createUnixServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRunner, probeRuntime } from '../index.js';
import { probeRuntimeDetailed } from '../probe-runtime.js';
import { createEscapedRunnerForTests } from '../internal/create-escaped-runner-for-tests.js';
import { SANDBOX_NICE_INCREMENT } from '../internal/lower-thread-priority.js';
import { findPidsByCommandLine, isAlive, isDeadOrGone, readParentPid } from './fixtures/host-process-inspection.js';
import { startOwnedListeners, type OwnedListeners } from './fixtures/owned-listeners.js';
import { createRecordingBridge } from './fixtures/recording-bridge.js';
import type { SandboxChildProbeReport } from './fixtures/sandbox-child-probe.js';
import { scaledTimeout } from '@tool-search/property-settings';

// Each case spawns real children on a shared 2-core machine: generous per-test budgets, never timed assertions.
vi.setConfig({ testTimeout: scaledTimeout(30_000), hookTimeout: scaledTimeout(30_000) });

const FAKE_SECRET_NAME = 'TOOL_SEARCH_ADVERSARIAL_FAKE_SECRET';
const FAKE_SECRET_VALUE = 'sk-adversarial-not-a-real-secret';
// Set before any child exists, so a runner that leaked the environment would hand it on.
process.env[FAKE_SECRET_NAME] = FAKE_SECRET_VALUE;
process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=4096`.trim();

const runner = createEscapedRunnerForTests({ engine: 'node', pool: { size: 1 } });
let listeners: OwnedListeners;
let scratchDir: string;
beforeAll(async () => {
  listeners = await startOwnedListeners();
  scratchDir = mkdtempSync(join(tmpdir(), 'tool-search-adversarial-'));
});
afterAll(async () => {
  await runner.close();
  await listeners.close();
  rmSync(scratchDir, { recursive: true, force: true });
});

async function runEscaped(code: string, bridge = createRecordingBridge().bridge) {
  return runner.run({ code, bridge, timeoutMs: 15_000 });
}

/** Wraps a synchronous attack so the body returns the error code it got, or 'succeeded'. */
function attempt(statement: string): string {
  return `try { ${statement}; return 'succeeded'; } catch (error) { return error.code ?? error.name; }`;
}

/** Wraps a callback-style attack: the body returns the code of the first error, or 'succeeded'. */
function attemptAsync(setup: string): string {
  return `
    return await new Promise((settle) => {
      const fail = (error) => settle(error?.code ?? error?.name ?? String(error));
      const succeed = () => settle('succeeded');
      try { ${setup} } catch (error) { fail(error); }
    });
  `;
}

describe('escaped code: the test-only bootstrap really hands over process and require', () => {
  it('sees a real process object and a working require', async () => {
    const result = await runEscaped("return { pid: typeof process.pid, path: typeof require('node:path').join };");
    expect(result.ok && result.value).toEqual({ pid: 'number', path: 'function' });
  });
});

describe('escaped code: file system', () => {
  it('cannot read a file outside tmp (/etc/hostname)', async () => {
    const result = await runEscaped(attempt("require('node:fs').readFileSync('/etc/hostname', 'utf8')"));
    expect(result.ok && result.value).toBe('ERR_ACCESS_DENIED');
  });

  it('cannot read this test file (the parent package sources)', async () => {
    const ownPath = fileURLToPath(import.meta.url);
    const result = await runEscaped(attempt(`require('node:fs').readFileSync(${JSON.stringify(ownPath)}, 'utf8')`));
    expect(result.ok && result.value).toBe('ERR_ACCESS_DENIED');
  });

  it('cannot write inside tmp, and no file appears', async () => {
    const target = join(scratchDir, 'written-by-escaped-code.txt');
    const result = await runEscaped(attempt(`require('node:fs').writeFileSync(${JSON.stringify(target)}, 'pwned')`));
    expect(result.ok && result.value).toBe('ERR_ACCESS_DENIED');
    expect(existsSync(target)).toBe(false);
  });

  it('cannot write outside tmp (next to the package sources), and no file appears', async () => {
    const target = fileURLToPath(new URL('./fixtures/written-by-escaped-code.txt', import.meta.url));
    const result = await runEscaped(attempt(`require('node:fs').writeFileSync(${JSON.stringify(target)}, 'pwned')`));
    expect(result.ok && result.value).toBe('ERR_ACCESS_DENIED');
    expect(existsSync(target)).toBe(false);
  });

  it('cannot list a directory through /proc/self/fd or /', async () => {
    const result = await runEscaped(`
      const fs = require('node:fs');
      const codes = [];
      for (const path of ['/', '/proc/self/fd']) { try { fs.readdirSync(path); codes.push('listed'); } catch (error) { codes.push(error.code); } }
      return codes;
    `);
    expect(result.ok && result.value).toEqual(['ERR_ACCESS_DENIED', 'ERR_ACCESS_DENIED']);
  });

  it('cannot write a diagnostic report, to a chosen path or the default one', async () => {
    const target = join(scratchDir, 'report.json');
    const result = await runEscaped(`
      const codes = [];
      for (const file of [${JSON.stringify(target)}, undefined]) {
        try { process.report.writeReport(file); codes.push('written'); } catch (error) { codes.push(error.code); }
      }
      return codes;
    `);
    expect(result.ok && result.value).toEqual(['ERR_ACCESS_DENIED', 'ERR_ACCESS_DENIED']);
    expect(existsSync(target)).toBe(false);
  });

  it('cannot load node:sqlite (disabled), by require or getBuiltinModule', async () => {
    const result = await runEscaped(`
      let viaRequire;
      try { require('node:sqlite'); viaRequire = 'loaded'; } catch (error) { viaRequire = error.code; }
      return { viaRequire, viaGetBuiltin: typeof process.getBuiltinModule('node:sqlite') };
    `);
    expect(result.ok && result.value).toEqual({ viaRequire: 'ERR_UNKNOWN_BUILTIN_MODULE', viaGetBuiltin: 'undefined' });
  });

  it('cannot reach native bindings through process.binding', async () => {
    const result = await runEscaped(attempt("process.binding('spawn_sync')"));
    expect(result.ok && result.value).toBe('ERR_ACCESS_DENIED');
  });

  it('cannot load a native addon, open the inspector or start WASI', async () => {
    const result = await runEscaped(`
      const codes = {};
      try { process.dlopen({ exports: {} }, '/lib/x86_64-linux-gnu/libc.so.6'); codes.dlopen = 'loaded'; } catch (error) { codes.dlopen = error.code; }
      try { require('node:inspector').open(0); codes.inspector = 'opened'; } catch (error) { codes.inspector = error.code; }
      try { new (require('node:wasi').WASI)({ version: 'preview1' }); codes.wasi = 'created'; } catch (error) { codes.wasi = error.code; }
      return codes;
    `);
    expect(result.ok && result.value).toEqual({ dlopen: 'ERR_DLOPEN_DISABLED', inspector: 'ERR_ACCESS_DENIED', wasi: 'ERR_ACCESS_DENIED' });
  });
});

describe('escaped code: network to listeners the test owns (which must see nothing)', () => {
  it('cannot open a TCP connection', async () => {
    const result = await runEscaped(
      attemptAsync(
        `const socket = require('node:net').connect(${listeners.tcpPort}, '127.0.0.1'); socket.on('error', fail); socket.on('connect', succeed);`,
      ),
    );
    expect(result.ok && result.value).toBe('ERR_ACCESS_DENIED');
    expect(listeners.counts.tcpConnections).toBe(0);
  });

  it('cannot listen on a TCP port', async () => {
    const result = await runEscaped(
      attemptAsync(
        "process.once('uncaughtException', fail); const server = require('node:net').createServer(); server.on('error', fail); server.listen(0, '127.0.0.1', succeed);",
      ),
    );
    expect(result.ok && result.value).toBe('ERR_ACCESS_DENIED');
  });

  it('cannot send a UDP datagram', async () => {
    const result = await runEscaped(
      attemptAsync(
        `const socket = require('node:dgram').createSocket('udp4'); socket.on('error', fail); socket.send('x', ${listeners.udpPort}, '127.0.0.1', (error) => (error ? fail(error) : succeed()));`,
      ),
    );
    expect(result.ok && result.value).toBe('ERR_ACCESS_DENIED');
    expect(listeners.counts.udpDatagrams).toBe(0);
  });

  it('cannot make an HTTP request, with node:http or fetch', async () => {
    const result = await runEscaped(`
      const viaHttp = await new Promise((settle) => {
        const request = require('node:http').get('http://127.0.0.1:${listeners.httpPort}/');
        request.on('error', (error) => settle(error.code));
        request.on('response', () => settle('responded'));
      });
      const viaFetch = await fetch('http://127.0.0.1:${listeners.httpPort}/').then(() => 'responded', () => 'failed');
      return { viaHttp, viaFetch };
    `);
    expect(result.ok && result.value).toEqual({ viaHttp: 'ERR_ACCESS_DENIED', viaFetch: 'failed' });
    expect(listeners.counts.httpConnections).toBe(0);
    expect(listeners.counts.httpRequests).toBe(0);
  });

  it('cannot connect to a unix-domain socket the test listens on (not covered by the network namespace)', async () => {
    const socketPath = join(scratchDir, 'owned.sock');
    let connections = 0;
    const server = createUnixServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const result = await runEscaped(
        attemptAsync(`const socket = require('node:net').connect(${JSON.stringify(socketPath)}); socket.on('error', fail); socket.on('connect', succeed);`),
      );
      expect(result.ok && result.value).toBe('ERR_ACCESS_DENIED');
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('cannot resolve DNS, through a resolver pointed at the test server or the system resolver', async () => {
    const result = await runEscaped(`
      const dns = require('node:dns');
      const viaResolver = await new Promise((settle) => {
        try {
          const resolver = new dns.Resolver({ timeout: 500, tries: 1 });
          resolver.setServers(['127.0.0.1:${listeners.dnsPort}']);
          resolver.resolve4('exfiltrate.example', (error) => settle(error ? error.code : 'resolved'));
        } catch (error) { settle(error.code); }
      });
      const viaLookup = await new Promise((settle) => dns.lookup('localhost', (error) => settle(error ? error.code : 'resolved')));
      return { viaResolver, viaLookup };
    `);
    expect(result.ok && result.value).toEqual({ viaResolver: 'ERR_ACCESS_DENIED', viaLookup: 'ERR_ACCESS_DENIED' });
    expect(listeners.counts.dnsQueries).toBe(0);
  });
});

describe('escaped code: processes and threads', () => {
  it('cannot spawn a child process or replace itself (spawnSync, exec, fork, process.execve)', async () => {
    const result = await runEscaped(`
      const childProcess = require('node:child_process');
      const codes = [];
      for (const attack of [
        () => childProcess.spawnSync('/bin/sh', ['-c', 'true']),
        () => childProcess.exec('true'),
        () => childProcess.fork('/dev/null'),
        () => process.execve('/bin/sh', ['sh', '-c', 'cat /etc/hostname'], {}),
      ]) {
        try { attack(); codes.push('spawned'); } catch (error) { codes.push(error.code); }
      }
      return codes;
    `);
    expect(result.ok && result.value).toEqual(['ERR_ACCESS_DENIED', 'ERR_ACCESS_DENIED', 'ERR_ACCESS_DENIED', 'ERR_ACCESS_DENIED']);
  });

  it('cannot start a worker thread', async () => {
    const result = await runEscaped(attempt("new (require('node:worker_threads').Worker)('1', { eval: true })"));
    expect(result.ok && result.value).toBe('ERR_ACCESS_DENIED');
  });

  it('SIGKILLs the whole child tree at the timeout, even one busy in for(;;) await null', async () => {
    const marker = `tool-search-adversarial-${process.pid}-${Date.now()}`;
    let sandboxPid: number | undefined;
    let wrapperPid: number | undefined;
    const { bridge } = createRecordingBridge({
      call: async () => {
        sandboxPid = findPidsByCommandLine(marker)[0];
        wrapperPid = sandboxPid === undefined ? undefined : readParentPid(sandboxPid);
        return 'located';
      },
    });
    const result = await runner.run({
      code: `process.title = ${JSON.stringify(marker)}; await tools.call('mcp:locate:me', {}); for (;;) await null;`,
      bridge,
      // Long enough for a cold child on a loaded machine to reach the locating call first.
      timeoutMs: 4_000,
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(sandboxPid).toBeTypeOf('number');
    expect(wrapperPid).toBeTypeOf('number');
    // SIGKILL is asynchronous: wait (bounded) for both to be dead, which must happen without any further action.
    await vi.waitFor(() => expect([isDeadOrGone(sandboxPid as number), isDeadOrGone(wrapperPid as number)]).toEqual([true, true]), {
      timeout: 5_000,
      interval: 20,
    });
  });

  it('takes idle warm-pool children down with their host process when it is SIGKILLed', async () => {
    const probePath = fileURLToPath(new URL('./fixtures/pool-owner-probe.ts', import.meta.url));
    const probe = spawn(process.execPath, ['--import', 'tsx', probePath], {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const firstLine = await new Promise<string>((resolve) => {
        let buffered = '';
        probe.stdout?.on('data', (chunk: Buffer) => {
          buffered += chunk.toString('utf8');
          if (buffered.includes('\n')) resolve(buffered.slice(0, buffered.indexOf('\n')));
        });
      });
      const { sandboxPids, wrapperPids } = JSON.parse(firstLine) as { sandboxPids: number[]; wrapperPids: number[] };
      expect(sandboxPids).toHaveLength(2);
      expect(wrapperPids.every((pid) => typeof pid === 'number')).toBe(true);
      probe.kill('SIGKILL');
      await vi.waitFor(() => expect([...sandboxPids, ...wrapperPids].filter((pid) => !isDeadOrGone(pid))).toEqual([]), {
        timeout: 5_000,
        interval: 20,
      });
    } finally {
      probe.kill('SIGKILL');
    }
  }, scaledTimeout(30_000));

  it('ends as crashed, not ok, when escaped code calls process.exit(0) before returning', async () => {
    const result = await runEscaped('process.exit(0);');
    expect(result).toMatchObject({ ok: false, error: { code: 'crashed' } });
  });
});

describe('escaped code: signals (contained by the pid namespace)', () => {
  let sibling: ChildProcess;
  beforeAll(async () => {
    const probe = await probeRuntime({ engine: 'node' });
    // The kill cases are only safe inside a pid namespace; refuse to run them (fail loudly) otherwise.
    expect(probe).toMatchObject({ ok: true, isolation: 'os' });
    sibling = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await new Promise((resolve) => sibling.once('spawn', resolve));
  });
  afterAll(() => {
    sibling.kill('SIGKILL');
  });

  // Each body refuses to signal anything unless it sees itself as a low pid, i.e. inside a fresh pid namespace.
  const guarded = (statement: string) => `
    if (process.pid > 16) return 'not in a pid namespace: refused to send the signal';
    ${attempt(statement)}
  `;

  it('cannot kill the parent (the test runner survives)', async () => {
    const result = await runEscaped(guarded(`process.kill(${process.pid}, 'SIGKILL')`));
    expect(result.ok && result.value).toBe('ESRCH');
    expect(isAlive(process.pid)).toBe(true);
  });

  it('cannot kill a sibling process the test spawned', async () => {
    const result = await runEscaped(guarded(`process.kill(${sibling.pid}, 'SIGKILL')`));
    expect(result.ok && result.value).toBe('ESRCH');
    expect(isAlive(sibling.pid as number)).toBe(true);
  });

  it('cannot send SIGUSR1 to the parent through process._debugProcess (which would open its inspector)', async () => {
    const result = await runEscaped(guarded(`process._debugProcess(${process.pid})`));
    expect(result.ok && result.value).toBe('ESRCH');
    expect(isAlive(process.pid)).toBe(true);
  });

  it('cannot become root again: uid 0 does not exist in its user namespace (setuid(0) → EINVAL)', async () => {
    const result = await runEscaped(`
      let setuid;
      try { process.setuid(0); setuid = 'became root'; } catch (error) { setuid = error.code; }
      return { uid: process.getuid(), setuid };
    `);
    expect(result.ok && result.value).toEqual({ uid: 65534, setuid: 'EINVAL' });
  });

  it('kills nothing outside with process.kill(-1) (the runner and the sibling survive)', async () => {
    const result = await runEscaped(guarded("process.kill(-1, 'SIGKILL')"));
    expect(result.ok && result.value).toBe('ESRCH');
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(sibling.pid as number)).toBe(true);
  });
});

describe('escaped code: environment and inherited state', () => {
  // Host-side views of one sandbox child, taken by a probe process of its own (see the fixture): the probe is
  // started by a shell holding fd 40 open without close-on-exec on a file (as shells and supervisors often
  // leave fds; Node itself marks only fds below ~10 close-on-exec at startup), so a runner that let host fds
  // through would show that file in the sandbox child.
  const childProbe = { heldFile: '', report: undefined as unknown as SandboxChildProbeReport };
  beforeAll(async () => {
    childProbe.heldFile = join(scratchDir, 'held-open-by-the-host.txt');
    writeFileSync(childProbe.heldFile, 'a credential the host process holds open');
    const probePath = fileURLToPath(new URL('./fixtures/sandbox-child-probe.ts', import.meta.url));
    const probe = spawn('/bin/bash', ['-c', 'exec 40<"$1"; exec "$0" --import tsx "$2"', process.execPath, childProbe.heldFile, probePath], {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    probe.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    probe.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // Killed before the hook's own timeout, so that a probe that hangs is not left running (its sandbox child
    // dies with it, as the pool-owner case shows) and the failure says what the probe printed.
    const stopProbe = setTimeout(() => probe.kill('SIGKILL'), 25_000);
    const exitCode = await new Promise((resolve) => probe.once('close', (code, signal) => resolve(code ?? signal)));
    clearTimeout(stopProbe);
    expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: '' });
    childProbe.report = JSON.parse(stdout) as SandboxChildProbeReport;
  }, scaledTimeout(30_000));

  it('sees an empty environment: no NODE_OPTIONS, no secret set in the parent', async () => {
    expect(process.env[FAKE_SECRET_NAME]).toBe(FAKE_SECRET_VALUE);
    const result = await runEscaped('return { env: { ...process.env }, keys: Object.keys(process.env) };');
    expect(result.ok && result.value).toEqual({ env: {}, keys: [] });
  });

  it('runs with the permission model on and no grants', async () => {
    const result = await runEscaped(`
      return ['fs.read', 'fs.write', 'child', 'worker', 'net', 'inspector', 'wasi', 'addon'].map((scope) => process.permission.has(scope));
    `);
    expect(result.ok && result.value).toEqual([false, false, false, false, false, false, false, false]);
  });

  it('hands the child only fds 0-3, not an inheritable fd its host process holds', () => {
    const report = childProbe.report;
    expect(report.result).toMatchObject({ ok: true, value: 'inspected' });
    expect(report.sandboxPids).toHaveLength(1);
    expect(new Map(report.probeFds).get(40)).toBe(childProbe.heldFile);
    const sandboxFds = new Map(report.sandboxFds);
    expect([0, 1, 2, 3].map((fd) => /^socket:/.test(sandboxFds.get(fd) ?? ''))).toEqual([true, true, true, true]);
    // Above fd 3, Node's own fds only: epoll/eventfd/io_uring, /dev/null, and its internal pipes, whose two ends
    // it holds itself. A pipe end seen once, a socket or any other path came from outside.
    const pipeEnds = (target: string) => report.sandboxFds.filter(([, other]) => other === target).length;
    const foreign = report.sandboxFds
      .filter(([fd]) => fd > 3)
      .filter(([, target]) => !(/^anon_inode:/.test(target) || target === '/dev/null' || (/^pipe:/.test(target) && pipeEnds(target) === 2)))
      .map(([fd, target]) => ({ fd, target }))
      .sort((left, right) => left.fd - right.fd);
    expect(foreign).toEqual([]);
  });

  it('runs in its own user, pid and network namespaces, as a non-root uid, with rlimits set', () => {
    const report = childProbe.report;
    expect(report.namespacesDiffer).toEqual({ pid: true, net: true, user: true, ipc: true });
    if (report.probeUid === 0) expect(report.sandboxHostUid).not.toBe('0');
    expect(report.limits.core).toBe('0');
    expect([report.limits.cpu, report.limits.data, report.limits.openFiles]).not.toContain('unlimited');
    expect([report.limits.cpu, report.limits.data, report.limits.openFiles]).not.toContain(undefined);
    expect({ processes: report.limits.processes, fileSize: report.limits.fileSize }).toEqual({ processes: '32', fileSize: '0' });
  });
});

describe('escaped code: red-team findings', () => {
  it('cannot change V8 flags (--allow-natives-syntax would open V8 internals)', async () => {
    const result = await runEscaped(attempt("require('node:v8').setFlagsFromString('--allow-natives-syntax')"));
    expect(result.ok && result.value).toBe('ERR_ACCESS_DENIED');
  });

  it('cannot tell an existing file from a missing one through module resolution', async () => {
    const result = await runEscaped(`
      const codes = [];
      for (const path of ['/etc/passwd', '/nonexistent/file.js']) {
        try { require.resolve(path); codes.push('resolved'); } catch (error) { codes.push(error.code); }
        try { require('node:module').createRequire('/').resolve(path); codes.push('resolved'); } catch (error) { codes.push(error.code); }
        try { require(path); codes.push('loaded'); } catch (error) { codes.push(error.code); }
      }
      return codes;
    `);
    expect(result.ok && result.value).toEqual(Array.from({ length: 6 }, () => 'MODULE_NOT_FOUND'));
  });

  it('learns no host facts: host name, CPUs, user, interfaces, report, and no path of the Node binary', async () => {
    const result = await runEscaped(`
      const os = require('node:os');
      let userInfo;
      try { userInfo = os.userInfo(); } catch (error) { userInfo = error.code; }
      let report;
      try { report = typeof process.report.getReport(); } catch (error) { report = error.code; }
      return {
        hostname: os.hostname(), cpus: os.cpus(), interfaces: os.networkInterfaces(), userInfo, report,
        homedir: os.homedir(), totalmem: os.totalmem(), execPath: process.execPath, argv: process.argv,
        argv0HasPath: process.argv0.includes('/') && process.argv0 !== '/proc/self/fd/4',
        globalPaths: require('node:module').globalPaths,
      };
    `);
    expect(result.ok && result.value).toEqual({
      hostname: 'sandbox',
      cpus: [],
      interfaces: {},
      userInfo: 'ERR_ACCESS_DENIED',
      report: 'ERR_ACCESS_DENIED',
      homedir: '/',
      totalmem: 0,
      execPath: 'node',
      argv: ['node'],
      argv0HasPath: false,
      globalPaths: [],
    });
  });

  it("runs below the host's CPU priority and cannot raise it back", async () => {
    const result = await runEscaped(`
      const os = require('node:os');
      let raised;
      try { os.setPriority(0); raised = 'succeeded'; } catch (error) { raised = error.code; }
      return { nice: os.getPriority(), raised };
    `);
    expect(result.ok && result.value).toEqual({ nice: Math.min(19, getPriority() + SANDBOX_NICE_INCREMENT), raised: 'ERR_ACCESS_DENIED' });
  });

  // Linux schedules each session as one group where autogroups are on, whatever the nice values of its threads:
  // the child (a session of its own) must have its group lowered, or it shares the cores with the host as an equal.
  // A host in the root group (an empty autogroup file: a process of PID 1's session, as a CI job may be) has its
  // threads weighed one by one against the child's group, so the child's group goes below the host's nice value.
  it.runIf(existsSync('/proc/self/autogroup'))("runs in a session scheduled below the host's (Linux autogroups)", async () => {
    const marker = `tool-search-adversarial-autogroup-${process.pid}-${Date.now()}`;
    const readGroup = (pid: number | 'self' | undefined) => {
      try {
        const text = readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim();
        if (text === '') return { group: 'root', nice: getPriority() };
        const match = /^(\S+) nice (-?\d+)$/.exec(text);
        return match === null ? undefined : { group: match[1], nice: Number(match[2]) };
      } catch {
        return undefined;
      }
    };
    const host = readGroup('self');
    const expected = Math.min(19, (host?.nice ?? Number.NaN) + SANDBOX_NICE_INCREMENT);
    let child: ReturnType<typeof readGroup>;
    const { bridge } = createRecordingBridge({
      call: async () => {
        const sandboxPid = findPidsByCommandLine(marker)[0];
        // The host tries a busy kernel again 100 ms later: a bounded wait for the change.
        const until = Date.now() + 2_000;
        child = readGroup(sandboxPid);
        while (child?.nice !== expected && Date.now() < until) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          child = readGroup(sandboxPid);
        }
        return 'located';
      },
    });
    const result = await runner.run({ code: `process.title = ${JSON.stringify(marker)}; await tools.call('mcp:locate:me', {}); return 1;`, bridge, timeoutMs: 15_000 });
    expect(result).toMatchObject({ ok: true, value: 1 });
    expect(host).toBeDefined();
    expect(child).toBeDefined();
    expect(child?.group).not.toBe(host?.group);
    expect(child?.nice).toBe(expected);
  });

  it('has no node:ffi and no ffi permission', async () => {
    const result = await runEscaped(`
      let ffi;
      try { require('node:ffi'); ffi = 'loaded'; } catch (error) { ffi = error.code; }
      return { ffi, granted: process.permission.has('ffi') };
    `);
    expect(result.ok && result.value).toEqual({ ffi: 'ERR_UNKNOWN_BUILTIN_MODULE', granted: false });
  });
});

describe('process layer: a runtime whose enforcement is weakened is refused, never run unsandboxed', () => {
  // Wrapper "node" binaries that report the right version but tamper with the flags the runner passes. They
  // exec through `env -i` because sh exports PWD, and a non-empty environment is refused on its own.
  const TAMPERINGS = {
    'drops --permission': 'for arg do shift; [ "$arg" = "--permission" ] && continue; set -- "$@" "$arg"; done',
    'turns --permission into --permission-audit':
      'for arg do shift; if [ "$arg" = "--permission" ]; then set -- "$@" --permission-audit; else set -- "$@" "$arg"; fi; done',
    'adds --allow-fs-read=*':
      'for arg do shift; if [ "$arg" = "--permission" ]; then set -- "$@" "$arg" "--allow-fs-read=*"; else set -- "$@" "$arg"; fi; done',
    'drops --disallow-code-generation-from-strings':
      'for arg do shift; [ "$arg" = "--disallow-code-generation-from-strings" ] && continue; set -- "$@" "$arg"; done',
    'adds --allow-ffi':
      'for arg do shift; if [ "$arg" = "--permission" ]; then set -- "$@" "$arg" "--allow-ffi"; else set -- "$@" "$arg"; fi; done',
    'drops --no-experimental-ffi': 'for arg do shift; [ "$arg" = "--no-experimental-ffi" ] && continue; set -- "$@" "$arg"; done',
  };
  let wrapperDir: string;
  let realNodePath: string;
  beforeAll(async () => {
    const probe = await probeRuntimeDetailed({ engine: 'node' });
    expect(probe.ok).toBe(true);
    // The path children exec: reachable by the unprivileged uid even when the checkout is private.
    realNodePath = probe.ok ? probe.execPath : '';
    // World-traversable: under the OS layer the wrapper is executed by the unprivileged uid.
    wrapperDir = mkdtempSync(join(tmpdir(), 'tool-search-adversarial-wrappers-'));
    chmodSync(wrapperDir, 0o755);
  });
  afterAll(() => {
    rmSync(wrapperDir, { recursive: true, force: true });
  });

  it('(control) runs normally through a pass-through wrapper, so the refusals below are the tampering', async () => {
    const wrapperPath = join(wrapperDir, 'node-pass-through');
    writeFileSync(wrapperPath, `#!/bin/sh\nexec /usr/bin/env -i ${JSON.stringify(realNodePath)} "$@"\n`, { mode: 0o755 });
    const probe = await probeRuntime({ engine: 'node', nodePath: wrapperPath });
    expect(probe).toMatchObject({ ok: true, isolation: 'os' });
    const passThroughRunner = createRunner({ engine: 'node', nodePath: wrapperPath, pool: { size: 0 } });
    try {
      const result = await passThroughRunner.run({ code: 'return 6 * 7;', bridge: createRecordingBridge().bridge, timeoutMs: 10_000 });
      expect(result).toMatchObject({ ok: true, value: 42 });
    } finally {
      await passThroughRunner.close();
    }
  });

  for (const [tampering, filter] of Object.entries(TAMPERINGS)) {
    it(`reports unavailable, running nothing, for a node binary that ${tampering}`, async () => {
      const wrapperPath = join(wrapperDir, `node-${tampering.replace(/[^a-z]+/g, '-')}`);
      writeFileSync(wrapperPath, `#!/bin/sh\n${filter}\nexec /usr/bin/env -i ${JSON.stringify(realNodePath)} "$@"\n`, { mode: 0o755 });
      const probe = await probeRuntime({ engine: 'node', nodePath: wrapperPath });
      expect(probe.ok).toBe(false);
      // The child's own enforcement self-check refused (not a crash or a bad flag).
      expect(probe.ok ? '' : probe.reason).toContain('the child refused to run');
      const tamperedRunner = createRunner({ engine: 'node', nodePath: wrapperPath, pool: { size: 0 } });
      try {
        const { bridge, calls } = createRecordingBridge();
        const result = await tamperedRunner.run({ code: "return await tools.call('mcp:must:not-run', {});", bridge, timeoutMs: 10_000 });
        expect(result).toMatchObject({ ok: false, error: { code: 'unavailable' } });
        expect(calls).toEqual([]);
      } finally {
        await tamperedRunner.close();
      }
    });
  }
});
