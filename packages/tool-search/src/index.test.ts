import * as catalog from '@tool-search/catalog';
import * as gatewayAdapter from '@tool-search/gateway-adapter';
import * as mcpServer from '@tool-search/mcp-server';
import * as modes from '@tool-search/modes';
import * as policy from '@tool-search/policy';
import * as sandboxRunner from '@tool-search/sandbox-runner';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readPublicExports } from '../scripts/public-exports.js';
import * as bundle from './index.js';

const packages = { catalog, policy, 'sandbox-runner': sandboxRunner, modes, 'gateway-adapter': gatewayAdapter, 'mcp-server': mcpServer } as const;
const indexOf = (name: string) => fileURLToPath(new URL(`../../${name}/src/index.ts`, import.meta.url));
const bundleExports = readPublicExports(fileURLToPath(new URL('./index.ts', import.meta.url)));

describe('tool-search bundle', () => {
  for (const [name, namespace] of Object.entries(packages)) {
    it(`re-exports every runtime export of @tool-search/${name}, as the same value`, () => {
      const exported = bundle as Record<string, unknown>;
      for (const [key, value] of Object.entries(namespace)) {
        expect(Object.keys(exported), `missing ${key} from @tool-search/${name}`).toContain(key);
        // A name two packages share comes from the first; it must mean the same thing in both.
        if (exported[key] !== value) expect(exported[key], `${key} differs from @tool-search/${name}'s`).toEqual(value);
      }
    });

    it(`re-exports every type export of @tool-search/${name}`, () => {
      const contract = readPublicExports(indexOf(name));
      expect(contract.values.length + contract.types.length).toBeGreaterThan(0);
      for (const type of contract.types) expect(bundleExports.types, `missing type ${type} from @tool-search/${name}`).toContain(type);
      for (const value of contract.values) expect(bundleExports.values, `missing ${value} from @tool-search/${name}`).toContain(value);
    });
  }

  it('exports nothing that no package exports', () => {
    const known = new Set(Object.keys(packages).flatMap((name) => {
      const contract = readPublicExports(indexOf(name));
      return [...contract.values, ...contract.types];
    }));
    for (const name of [...bundleExports.values, ...bundleExports.types]) expect(known.has(name), name).toBe(true);
    expect(Object.keys(bundle).sort()).toEqual(bundleExports.values);
  });
});
