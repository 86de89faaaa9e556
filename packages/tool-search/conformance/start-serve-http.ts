// Starts the built `tool-search serve --http 127.0.0.1:0` (for the conformance runner and bench:mcp-front) and
// resolves with its URL once it listens; rejects with its stderr if it exits first.
import { spawn, type ChildProcess } from 'node:child_process';

export function startServeHttp(bin: string, config: string, mode: string): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'serve', '--config', config, '--mode', mode, '--http', '127.0.0.1:0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /"url": "([^"]+)"/.exec(out);
      if (match) resolve({ url: match[1]!, child });
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`serve --http exited ${String(code)}:\n${err}`)));
  });
}
