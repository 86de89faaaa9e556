import * as fs from 'node:fs';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listInheritableFds } from './list-inheritable-fds.js';

describe('listInheritableFds', () => {
  it('leaves out fds opened by Node (close-on-exec) and 0-3', () => {
    const fd = openSync(fileURLToPath(import.meta.url), 'r');
    try {
      const listed = listInheritableFds(fs, process.platform);
      expect(listed).not.toContain(fd);
      expect(listed.every((entry) => entry > 3)).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it('lists an fd whose fdinfo has no close-on-exec flag, and nothing on a platform without /proc', () => {
    const table = {
      readdirSync: () => ['0', '3', '7', '9', 'not-an-fd'],
      readFileSync: (path: string) => (path.endsWith('/7') ? 'pos:\t0\nflags:\t0100002\n' : 'pos:\t0\nflags:\t02100002\n'),
    };
    expect(listInheritableFds(table, 'linux')).toEqual([7]);
    expect(listInheritableFds(table, 'darwin')).toEqual([]);
  });

  it('works from its source text alone, as the child-process host embeds it', () => {
    const rebuilt = new Function(`return (${String(listInheritableFds)})`)() as typeof listInheritableFds;
    expect(rebuilt(fs, process.platform)).toEqual(listInheritableFds(fs, process.platform));
  });
});
