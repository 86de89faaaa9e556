// `pnpm tool-search <args>` from a clone: builds the CLI and the packages it needs (turbo, so a second run is a
// cache hit), then runs it with the arguments, in the directory pnpm was started from (relative paths such as
// `init --from ./claude_desktop_config.json` mean what they say). turbo's own output goes to stderr, so
// `pnpm --silent tool-search serve` keeps stdout for the MCP messages alone.
import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const cli = join(root, 'packages', 'tool-search', 'dist', 'cli.js');
const turbo = join(root, 'node_modules', 'turbo', 'bin', 'turbo');

const build = spawnSync(process.execPath, [turbo, 'run', 'build', '--filter=tool-search...', '--output-logs=errors-only', '--log-prefix=none'], {
  cwd: root,
  stdio: ['ignore', process.stderr, process.stderr],
});
if (build.status !== 0) {
  process.stderr.write(`tool-search: building the CLI failed (turbo exited ${build.status ?? build.signal}; its errors are above). A fresh clone needs "pnpm install" in ${root} first.\n`);
  process.exit(1);
}
const child = spawn(process.execPath, [cli, ...process.argv.slice(2)], { cwd: process.env.INIT_CWD ?? process.cwd(), stdio: 'inherit' });
// An MCP client stops its server with a signal: the CLI gets it too, and drains as it would if started directly.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === null ? 0 : (constants.signals[signal] ?? 0))));
