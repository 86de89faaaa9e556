import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Path of the OpenAI-compatible embeddings server the embedder tests run as a child process. */
export const EMBEDDINGS_FIXTURE_SERVER_PATH = fileURLToPath(new URL('../servers/embeddings-server.mjs', import.meta.url));

/** A running embeddings fixture server: its `/v1` base URL, its request counts, and how to stop it. */
export interface EmbeddingsFixture {
  baseUrl: string;
  process: ChildProcess;
  /** Embedding requests and texts the server has answered (or refused) so far. */
  stats(): Promise<{ requests: number; inputs: number }>;
  stop(): Promise<void>;
}

/** Starts the fixture server on a free loopback port (`fail`: every embedding request answers HTTP 503). */
export async function startEmbeddingsFixture(options: { fail?: boolean } = {}): Promise<EmbeddingsFixture> {
  const child = spawn(process.execPath, [EMBEDDINGS_FIXTURE_SERVER_PATH], {
    env: { ...process.env, ...(options.fail === true ? { EMBED_FAIL: '1' } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`embeddings fixture exited with ${String(code)} before listening`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  lines.close();
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: `${origin}/v1`,
    process: child,
    stats: async () => (await (await fetch(`${origin}/stats`)).json()) as { requests: number; inputs: number },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
