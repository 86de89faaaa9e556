import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listDescendantPids } from './list-descendant-pids.js';

/** Closes `client` (the SDK ends a stdio server's stdin, then sends SIGTERM and SIGKILL) and kills what the server started. */
export async function stopMcpClient(client: Client, pid: number | undefined): Promise<void> {
  const descendants = pid === undefined ? [] : listDescendantPids(pid);
  await client.close().catch(() => undefined);
  // A wrapper (`npx`, `sh -c`) may leave the real server behind: what is still running is stopped.
  for (const child of descendants) {
    try {
      process.kill(child, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
