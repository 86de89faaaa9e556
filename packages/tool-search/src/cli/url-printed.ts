// For tests, benches and the conformance runner that spawn the built `tool-search` with `--json`: the URL it
// prints once it listens.
import type { ChildProcess } from 'node:child_process';

/** Resolves with the `"url"` of the child's JSON result on stdout; rejects, with its stderr when piped, when it exits first. */
export function urlPrinted(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /"url": "([^"]+)"/.exec(out);
      if (match) resolve(match[1] as string);
    });
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`${String(child.spawnargs[2] ?? 'tool-search')} exited ${String(code)} before it printed its URL${err === '' ? '' : `:\n${err}`}`)));
  });
}
