#!/usr/bin/env node
// The tests drive real parts where users have real parts: a Redis and an nginx for the replica tests, a
// Chromium for the console's browser test, Prometheus's promtool for the /metrics test. They come from the
// distribution's packages, never downloaded at run time. This step runs before `pnpm test`: it does nothing when the commands are there, installs the missing
// packages with apt-get when it can (root on a Debian-like machine, as in CI), and otherwise stops with the
// exact command to run.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const REQUIRED = [
  { command: 'redis-server', debianPackage: 'redis-server', usedBy: 'the replica tests (shared store)' },
  { command: 'nginx', debianPackage: 'nginx', usedBy: 'the replica tests (round-robin in front of the replicas)' },
  { command: 'chromium', debianPackage: 'chromium', usedBy: 'the console browser test (headless)' },
  { command: 'promtool', debianPackage: 'prometheus', usedBy: "the /metrics test (Prometheus's own parser of the text format)" },
];

function findCommand(command) {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
  for (const dir of dirs) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return join(dir, command);
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

const missing = REQUIRED.filter((entry) => findCommand(entry.command) === undefined);
if (missing.length === 0) process.exit(0);

const packages = missing.map((entry) => entry.debianPackage);
const describe = missing.map((entry) => `  ${entry.command} (Debian package ${entry.debianPackage}): ${entry.usedBy}`).join('\n');
const canInstall = process.platform === 'linux' && process.getuid?.() === 0 && findCommand('apt-get') !== undefined;
if (!canInstall) {
  console.error(`The tests need these system commands, which are not installed:\n${describe}\n` +
    `Install them, for example: sudo apt-get update && sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`);
  process.exit(1);
}

console.error(`Installing the system packages the tests need:\n${describe}`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...packages]]) {
  const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (result.status !== 0) {
    console.error(`apt-get ${args.join(' ')} failed (exit ${String(result.status)}); install ${packages.join(' ')} and run the tests again.`);
    process.exit(1);
  }
}
const stillMissing = missing.filter((entry) => findCommand(entry.command) === undefined);
if (stillMissing.length > 0) {
  console.error(`Still missing after apt-get: ${stillMissing.map((entry) => entry.command).join(', ')}`);
  process.exit(1);
}
