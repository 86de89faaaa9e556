// In-process streams for the command's tests: what it wrote to stdout and stderr, as text.
import { PassThrough } from 'node:stream';
import type { CliIo } from './cli-io.js';

export function createTestIo(options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): CliIo & { stdin: PassThrough; out(): string; err(): string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  return { stdout, stderr, stdin: new PassThrough(), env: options.env ?? {}, cwd: options.cwd ?? process.cwd(), out: () => out, err: () => err };
}
