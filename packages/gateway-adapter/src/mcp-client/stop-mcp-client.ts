import type { Client } from '@modelcontextprotocol/client';
import { listDescendantPids } from './list-descendant-pids.js';

/** How long a server left running after the client closed gets after SIGTERM before SIGKILL. */
const TERMINATE_GRACE_MS = 2_000;
const POLL_MS = 10;

/**
 * Closes `client` (the SDK ends a stdio server's stdin, then sends SIGTERM and SIGKILL) and kills what the server
 * started. A server the SDK let go of without waiting (one whose `initialize` failed or was aborted) is stopped here
 * and waited for, so nothing outlives the close.
 */
export async function stopMcpClient(client: Client, pid: number | undefined): Promise<void> {
  const descendants = pid === undefined ? [] : listDescendantPids(pid);
  await client.close().catch(() => undefined);
  if (pid !== undefined && isRunning(pid)) await terminate(pid);
  // A wrapper (`npx`, `sh -c`) may leave the real server behind: what is still running is stopped.
  for (const child of descendants) signal(child, 'SIGKILL');
}

async function terminate(pid: number): Promise<void> {
  signal(pid, 'SIGTERM');
  const deadline = Date.now() + TERMINATE_GRACE_MS;
  while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  if (isRunning(pid)) signal(pid, 'SIGKILL');
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}
