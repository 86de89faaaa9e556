import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../resolve-limits.js';
import { buildSpawnCommand, dataLimitBytes, nodeFlags } from './build-spawn-command.js';

const tools = { setpriv: '/usr/bin/setpriv', unshare: '/usr/bin/unshare', prlimit: '/usr/bin/prlimit' };

describe('nodeFlags', () => {
  it('turns on the permission model with no grants, no code generation, no sqlite and the heap cap', () => {
    const flags = nodeFlags({ ...DEFAULT_LIMITS, heapMb: 48 });
    expect(flags).toEqual(
      expect.arrayContaining([
        '--permission',
        '--disallow-code-generation-from-strings',
        '--no-experimental-sqlite',
        '--no-experimental-ffi',
        '--max-old-space-size=48',
      ]),
    );
    expect(flags.some((flag) => flag.startsWith('--allow-') || flag.startsWith('--permission-audit'))).toBe(false);
  });
});

describe('buildSpawnCommand', () => {
  it('runs Node directly with the bootstrap inline for node-only', () => {
    const command = buildSpawnCommand({ nodePath: '/node', bootstrap: 'BOOT', limits: DEFAULT_LIMITS, osLayer: undefined, dropPrivileges: false });
    expect(command.command).toBe('/node');
    // argv0 'node': the child's process.argv0 names no path of the host.
    expect(command.argv0).toBe('node');
    expect(command.args.slice(-2)).toEqual(['-e', 'BOOT']);
  });

  it('wraps Node in setpriv → unshare → prlimit, dropping to uid 65534 when root', () => {
    const command = buildSpawnCommand({ nodePath: '/node', bootstrap: 'BOOT', limits: DEFAULT_LIMITS, osLayer: tools, dropPrivileges: true });
    const { args } = command;
    expect(command.command).toBe('/usr/bin/setpriv');
    expect(args.slice(0, 7)).toEqual(['--reuid=65534', '--regid=65534', '--clear-groups', '--no-new-privs', '--pdeathsig', 'KILL', '--']);
    const unshareAt = args.indexOf('/usr/bin/unshare');
    expect(args.slice(unshareAt, unshareAt + 8)).toEqual(['/usr/bin/unshare', '--user', '--net', '--pid', '--ipc', '--fork', '--kill-child', '--']);
    const prlimitAt = args.indexOf('/usr/bin/prlimit');
    expect(args.slice(prlimitAt, prlimitAt + 9)).toEqual([
      '/usr/bin/prlimit',
      `--data=${dataLimitBytes(64)}`,
      '--cpu=62',
      '--nofile=64',
      '--nproc=32',
      '--fsize=0',
      '--core=0',
      '--',
      '/proc/self/fd/4',
    ]);
    expect(command.binaryOnFd).toBe('/node');
    expect(args.slice(-2)).toEqual(['-e', 'BOOT']);
  });

  it('adds a mount namespace with a fresh /proc when mountProc is set', () => {
    const { args } = buildSpawnCommand({ nodePath: '/node', bootstrap: 'BOOT', limits: DEFAULT_LIMITS, osLayer: { ...tools, mountProc: true }, dropPrivileges: true });
    const unshareAt = args.indexOf('/usr/bin/unshare');
    expect(args.slice(unshareAt, unshareAt + 10)).toEqual([
      '/usr/bin/unshare',
      '--user',
      '--net',
      '--pid',
      '--ipc',
      '--mount',
      '--mount-proc',
      '--fork',
      '--kill-child',
      '--',
    ]);
  });

  it('keeps the uid when not root', () => {
    const { args } = buildSpawnCommand({ nodePath: '/node', bootstrap: 'BOOT', limits: DEFAULT_LIMITS, osLayer: tools, dropPrivileges: false });
    expect(args.some((arg) => arg.startsWith('--reuid'))).toBe(false);
    expect(args.slice(0, 4)).toEqual(['--no-new-privs', '--pdeathsig', 'KILL', '--']);
  });
});

describe('dataLimitBytes', () => {
  it('never goes below the 768 MiB Node 26 needs to start, and grows with the heap', () => {
    expect(dataLimitBytes(64)).toBe(768 * 1024 * 1024);
    expect(dataLimitBytes(256)).toBe((512 + 1024) * 1024 * 1024);
  });
});
