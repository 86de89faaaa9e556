import { describe, expect, it } from 'vitest';
import { spawnRelayedChild, type RelayedChild } from './create-child-process-host.js';

interface Seen {
  channel: string;
  stdoutBytes: number;
  stderr: string;
  errors: string[];
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnSh(script: string): { child: RelayedChild; seen: Seen } {
  let resolveClosed!: (value: { code: number | null; signal: NodeJS.Signals | null }) => void;
  const seen: Seen = { channel: '', stdoutBytes: 0, stderr: '', errors: [], closed: new Promise((resolve) => (resolveClosed = resolve)) };
  const child = spawnRelayedChild(
    { command: '/bin/sh', args: ['-c', script] },
    {
      onChannel: (chunk) => (seen.channel += chunk.toString('utf8')),
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
  it('relays the channel (fd 3) bytes, counts stdout, keeps stderr text, then reports the close', async () => {
    const { child, seen } = spawnSh('printf "line one\\n" >&3; printf "12345"; printf "oops" >&2; exit 3');
    expect(await seen.closed).toEqual({ code: 3, signal: null });
    expect(seen).toMatchObject({ channel: 'line one\n', stdoutBytes: 5, stderr: 'oops', errors: [] });
    expect(child.pid).toBeGreaterThan(0);
  });

  it('writes to the child stdin in order', async () => {
    const { child, seen } = spawnSh('read first; read second; printf "%s|%s\\n" "$first" "$second" >&3');
    child.write('alpha\n');
    child.write('beta\n');
    expect(await seen.closed).toEqual({ code: 0, signal: null });
    expect(seen.channel).toBe('alpha|beta\n');
  });

  it('kills a child whose kill was asked for before its pid was known (the worker has not spawned it yet)', async () => {
    const { child, seen } = spawnSh('sleep 30');
    child.kill();
    expect(await seen.closed).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('kills the whole process group of a running child', async () => {
    const { child, seen } = spawnSh('sleep 30 & printf "started\\n" >&3; wait');
    await expect.poll(() => seen.channel).toBe('started\n');
    child.kill();
    expect(await seen.closed).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('reports a command that cannot be spawned as an error and a close, never a throw', async () => {
    let resolveClosed!: (value: unknown) => void;
    const closed = new Promise((resolve) => (resolveClosed = resolve));
    const errors: string[] = [];
    spawnRelayedChild(
      { command: '/nonexistent/tool-search-binary', args: [] },
      { onChannel() {}, onOutput() {}, onError: (message) => errors.push(message), onClose: (code, signal) => resolveClosed({ code, signal }) },
    );
    await closed;
    expect(errors.join(' ')).toMatch(/ENOENT/);
  });
});
