import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderGuestSourcesModule } from '../../scripts/render-guest-sources.js';
import { CHILD_BOOTSTRAP_TEMPLATE, CHILD_PROCESS_HOST_SOURCE, QUICKJS_WORKER_SOURCE, REALM_RUNTIME_SOURCE } from './guest-sources.js';

describe('guest sources', () => {
  it('is the module scripts/generate-guest-sources.ts writes from src/guest (run it after editing a guest file)', () => {
    expect(readFileSync(new URL('./guest-sources.ts', import.meta.url), 'utf8')).toBe(renderGuestSourcesModule());
  });

  it('holds each guest file verbatim, as checked code (// @ts-check first)', () => {
    const files = { 'realm-runtime.js': REALM_RUNTIME_SOURCE, 'quickjs-worker.cjs': QUICKJS_WORKER_SOURCE, 'child-process-host.cjs': CHILD_PROCESS_HOST_SOURCE, 'child-bootstrap.cjs': CHILD_BOOTSTRAP_TEMPLATE };
    for (const [file, text] of Object.entries(files)) {
      expect(text).toBe(readFileSync(new URL(`../guest/${file}`, import.meta.url), 'utf8'));
      expect(text.startsWith('// @ts-check\n')).toBe(true);
    }
  });
});
