// The package's tests run on a Node its engines field admits (vitest.config.ts's poolForNode), so the CLI they
// spawn with process.execPath runs where a user's would.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('the Node the tests run on', () => {
  it("satisfies the package's engines.node", () => {
    const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    const minimum = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(engines.node);
    expect(minimum, `engines.node ${engines.node} is not ">=x.y.z"`).not.toBeNull();
    const [major, minor, patch] = process.versions.node.split('.').map(Number) as [number, number, number];
    const [wantMajor, wantMinor, wantPatch] = (minimum ?? []).slice(1).map(Number) as [number, number, number];
    const atLeast = major !== wantMajor ? major > wantMajor : minor !== wantMinor ? minor > wantMinor : patch >= wantPatch;
    expect(atLeast, `Node ${process.versions.node} does not satisfy ${engines.node}`).toBe(true);
  });
});
