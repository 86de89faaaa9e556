import * as fs from 'node:fs';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spawnRelayedChild, terminateChildProcessHostForTests, type RelayedChild } from './create-child-process-host.js';
import { listInheritableFds } from './list-inheritable-fds.js';

interface Seen {
  /** Each line as `text|bytes|measured`. */
  lines: string[];
  overflows: number[];
  stdoutBytes: number;
  stderr: string;
  errors: string[];
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const SPEC = { maxLineBytes: 64, lineCaps: { members: 3, depth: 2 } };

function spawnSh(script: string, extra: { args?: string[]; closeFds?: { marker: string; first: number[] } } = {}): { child: RelayedChild; seen: Seen } {
  let resolveClosed!: (value: { code: number | null; signal: NodeJS.Signals | null }) => void;
  const seen: Seen = { lines: [], overflows: [], stdoutBytes: 0, stderr: '', errors: [], closed: new Promise((resolve) => (resolveClosed = resolve)) };
  const child = spawnRelayedChild(
    { command: '/bin/sh', args: ['-c', script, ...(extra.args ?? [])], closeFds: extra.closeFds, ...SPEC },
    {
      onLine: (line, bytes, measured) => seen.lines.push(`${line}|${bytes}|${measured}`),
      onOverflow: (bytes) => seen.overflows.push(bytes),
      onOutput(bytes, text) {
        if (text === undefined) seen.stdoutBytes += bytes;
        else seen.stderr += text;
      },
      onError: (message) => seen.errors.push(message),
      onClose: (code, signal) => resolveClosed({ code, signal }),
    },
  );
  return { child, seen };
}

describe('spawnRelayedChild', () => {
  it('lists the fds the child is to close at spawn time and writes them in place of the first marker', async () => {
    const inheritable = listInheritableFds(fs, process.platform).filter((fd) => fd !== 4);
    const { seen } = spawnSh('printf "%s\\n" "$0" >&3', { args: ['fds=@FDS@ then @FDS@'], closeFds: { marker: '@FDS@', first: [4] } });
    expect(await seen.closed).toEqual({ code: 0, signal: null });
    expect(seen.lines.map((line) => line.slice(0, line.indexOf('|')))).toEqual([`fds=${JSON.stringify([4, ...inheritable])} then @FDS@`]);
  });

  it('relays the channel (fd 3) as lines, counts stdout, keeps stderr text, then reports the close', async () => {
    const { child, seen } = spawnSh('printf "line one\\n" >&3; printf "12345"; printf "oops" >&2; exit 3');
    expect(await seen.closed).toEqual({ code: 3, signal: null });
    expect(seen).toMatchObject({ lines: ['line one|8|true'], stdoutBytes: 5, stderr: 'oops', errors: [] });
    expect(child.pid).toBeGreaterThan(0);
  });

  it('joins a line written in pieces and marks one past the member or depth caps unmeasured', async () => {
    const { seen } = spawnSh('printf "[1," >&3; sleep 0.05; printf "2]\\n[1,2,3,4]\\n[[[1]]]\\n" >&3');
    await seen.closed;
    expect(seen.lines).toEqual(['[1,2]|5|true', '[1,2,3,4]|9|false', '[[[1]]]|7|false']);
  });

  it('reports a line past maxLineBytes once and relays nothing of the channel after it', async () => {
    const { seen } = spawnSh(`printf "short\\n%070d\\nafter\\n" 0 >&3`);
    await seen.closed;
    expect(seen.lines).toEqual(['short|5|true']);
    expect(seen.overflows).toEqual([70]);
  });

  it('writes to the child stdin in order', async () => {
    const { child, seen } = spawnSh('read first; read second; printf "%s|%s\\n" "$first" "$second" >&3');
    child.write('alpha\n');
    child.write('beta\n');
    expect(await seen.closed).toEqual({ code: 0, signal: null });
    expect(seen.lines).toEqual(['alpha|beta|10|true']);
  });

  it('kills a child whose kill was asked for before its pid was known (the worker has not spawned it yet)', async () => {
    const { child, seen } = spawnSh('sleep 30');
    child.kill();
    expect(await seen.closed).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('kills the whole process group of a running child', async () => {
    const { child, seen } = spawnSh('sleep 30 & printf "started\\n" >&3; wait');
    await expect.poll(() => seen.lines).toEqual(['started|7|true']);
    child.kill();
    expect(await seen.closed).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('reports a command that cannot be spawned as an error and a close, never a throw', async () => {
    let resolveClosed!: (value: unknown) => void;
    const closed = new Promise((resolve) => (resolveClosed = resolve));
    const errors: string[] = [];
    spawnRelayedChild(
      { command: '/nonexistent/tool-search-binary', args: [], ...SPEC },
      { onLine() {}, onOverflow() {}, onOutput() {}, onError: (message) => errors.push(message), onClose: (code, signal) => resolveClosed({ code, signal }) },
    );
    await closed;
    expect(errors.join(' ')).toMatch(/ENOENT/);
  });

  it('kills and reports closed every child of a host worker that died, and the next spawn gets a new worker', async () => {
    const { child, seen } = spawnSh('printf "up\\n" >&3; sleep 30');
    await expect.poll(() => seen.lines).toEqual(['up|2|true']);
    const pid = child.pid as number;
    await terminateChildProcessHostForTests();
    expect(await seen.closed).toEqual({ code: null, signal: null });
    expect(seen.errors.join(' ')).toMatch(/child-process host exited/);
    await expect.poll(() => isAlive(pid)).toBe(false);
    const next = spawnSh('exit 0');
    expect(await next.seen.closed).toEqual({ code: 0, signal: null });
  });
});

/** Running, as opposed to gone or dead and not yet reaped (nothing reaps a child of a host worker that died). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
