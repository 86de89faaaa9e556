#!/usr/bin/env node
// The `tool-search` bin: runs the command on this process's streams and exits with its status.
import module from 'node:module';

// Node >= 22.1 keeps the compiled code of the modules it loads on disk, so a second start parses less (a no-op
// on older Node, and when NODE_DISABLE_COMPILE_CACHE is set). Enabled before the command's modules load.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { runCli } = await import('./cli/run-cli.js');

// A reader that went away (`tool-search list | head`, an MCP client that quit) ends the command quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
const code = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() });
process.exit(code);
