// `pnpm test:loaded [args]`: `pnpm test` (or the pnpm script named by the first argument) with every core kept busy
// by another process, one busy-loop Node per core, as on a contributor's laptop doing other work or a shared CI
// runner. The suite's timeouts scale with the load it finds (test-timeouts.js); the busy loops end with the run,
// which prints its wall time and exits with the test run's code.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const script = process.argv[2] ?? 'test';
const busy = Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopBusy = () => {
  for (const child of busy) child.kill('SIGKILL');
};
process.on('exit', stopBusy);
const started = performance.now();
process.stderr.write(`test:loaded: ${busy.length} busy-loop processes (pids ${busy.map((child) => child.pid).join(', ')}), then pnpm ${script}\n`);
const run = spawn('pnpm', [script, ...process.argv.slice(3)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => run.kill(signal));
run.on('exit', (code, signal) => {
  stopBusy();
  process.stderr.write(`test:loaded: pnpm ${script} ${signal === null ? `exited ${code}` : `ended by ${signal}`} after ${((performance.now() - started) / 1000).toFixed(0)} s under load\n`);
  process.exit(code ?? 1);
});
