// Starts the built `tool-search serve --http 127.0.0.1:0` (for the conformance runner and bench:mcp-front) and
// resolves with its URL once it listens; rejects with its stderr if it exits first.
import { spawn, type ChildProcess } from 'node:child_process';
import { urlPrinted } from '../src/cli/url-printed.js';

export async function startServeHttp(bin: string, config: string, mode: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bin, 'serve', '--config', config, '--mode', mode, '--http', '127.0.0.1:0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return { url: await urlPrinted(child), child };
}
