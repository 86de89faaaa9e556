import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * The SDK's stdio transport, remembering its server's process id once spawned. The SDK forgets the process when a
 * client's `initialize` fails (it closes the transport without waiting), so a server closed while starting would
 * otherwise be left to exit on its own after the host is gone.
 */
export class TrackedStdioClientTransport extends StdioClientTransport {
  /** The id of the process this transport spawned (kept after the SDK lets go of it). */
  spawnedPid: number | undefined;

  override async start(): Promise<void> {
    await super.start();
    this.spawnedPid = this.pid ?? undefined;
  }
}
