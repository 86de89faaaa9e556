#!/usr/bin/env node
// The `tool-search` bin: runs the command on this process's streams and exits with its status.
import { runCli } from './cli/run-cli.js';

// A reader that went away (`tool-search list | head`, an MCP client that quit) ends the command quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const code = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() });
process.exit(code);
