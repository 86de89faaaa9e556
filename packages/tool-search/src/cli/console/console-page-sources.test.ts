// The drift test of the console page's inlined sources: the same shape as sandbox-runner's guest sources.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderConsoleSourcesModule } from '../../../scripts/render-console-sources.js';
import { CONSOLE_SCRIPT, CONSOLE_STYLE } from './console-page-sources.js';

describe('console page sources', () => {
  it('is the module scripts/generate-console-sources.ts writes from src/cli/console/page (run it after editing a page file)', () => {
    expect(readFileSync(new URL('./console-page-sources.ts', import.meta.url), 'utf8')).toBe(renderConsoleSourcesModule());
  });

  it('holds the page script and style verbatim, the script as checked code (// @ts-check first)', () => {
    expect(CONSOLE_SCRIPT).toBe(readFileSync(new URL('./page/console-script.js', import.meta.url), 'utf8'));
    expect(CONSOLE_STYLE).toBe(readFileSync(new URL('./page/console-style.css', import.meta.url), 'utf8'));
    expect(CONSOLE_SCRIPT.startsWith('// @ts-check\n')).toBe(true);
  });
});
