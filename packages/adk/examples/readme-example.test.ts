// The README's example (readme-example.mjs, which the README shows whole) run in this workspace against the
// package's source: it prints readme-example.expected.txt. tooling/release runs the same file from the packed
// tarballs in a plain npm project.
import { readFileSync } from 'node:fs';
import { expect, it, vi } from 'vitest';

it('runs the README example, which prints what the README says', async () => {
  const printed: string[] = [];
  // Restored before the expectation: the project's files share a worker (sharedModules), so the next file's console is its own.
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.join(' ')));
  const example = './readme-example.mjs';
  try {
    await import(example);
  } finally {
    log.mockRestore();
  }
  expect(`${printed.join('\n')}\n`).toBe(readFileSync(new URL('./readme-example.expected.txt', import.meta.url), 'utf8'));
});
