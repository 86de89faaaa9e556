import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listInheritableFds } from './list-inheritable-fds.js';

describe('listInheritableFds', () => {
  it('leaves out fds opened by Node (close-on-exec) and 0-3', () => {
    const fd = openSync(fileURLToPath(import.meta.url), 'r');
    try {
      const listed = listInheritableFds();
      expect(listed).not.toContain(fd);
      expect(listed.every((entry) => entry > 3)).toBe(true);
    } finally {
      closeSync(fd);
    }
  });
});
