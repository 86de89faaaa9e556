// A real Redis (Debian's redis-server, installed by tooling/system-packages) on a free loopback port, in a temp
// folder, with nothing persisted: what the Redis store's tests and the replica test speak to.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running redis-server. */
export interface RedisServerFixture {
  /** `redis://127.0.0.1:PORT`. */
  url: string;
  port: number;
  process: ChildProcess;
  /** Kills it (SIGKILL: nothing to keep) and removes its folder. */
  stop(): Promise<void>;
}

/** A port free on 127.0.0.1 now (the kernel's pick, released for the caller to bind). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port was assigned');
  return address.port;
}

/** Starts redis-server and resolves once it accepts connections. */
export async function startRedisServer(): Promise<RedisServerFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'ts-redis-'));
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`redis-server exited (${String(code)}) before it was ready: ${output.slice(-500)}`)));
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('Ready to accept connections')) resolve();
      });
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis://127.0.0.1:${port}`, port, process: child, stop };
}
