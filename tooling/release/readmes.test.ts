// The READMEs say what the packages declare: each adapter's example is its examples/readme-example.mjs whole, imports
// only what its install line installs, and its "Requires:" line is the package's engines and peers; every README's
// zod range and Node floor are its package's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listPublishedPackages, REPO_ROOT } from './published-packages.ts';
import { bareImports, listReadmeExamples, nodeRange, packageOfSpecifier, publishedRanges, workspaceCatalog } from './readme-examples.ts';

const examples = listReadmeExamples();

it('finds the five framework adapters’ README examples', () => {
  expect(examples.map((example) => example.pkg.name)).toEqual(['@tool-search/adk', '@tool-search/ai-sdk', '@tool-search/langchain', '@tool-search/mastra', '@tool-search/openai-agents']);
});

describe.each(examples.map((example) => [example.pkg.name, example] as const))('%s README', (_name, example) => {
  it('shows examples/readme-example.mjs whole, and what it prints', () => {
    expect(example.readme).toContain(`\`\`\`js\n${example.source}\`\`\``);
    expect(example.readme).toContain(`\`\`\`text\n${example.expected}\`\`\``);
  });

  it('installs every package the example imports, with the line the example opens with', () => {
    expect(example.installs[0], 'a "## Install" section that opens with an `npm install <this package> …` sh block').toBe(example.pkg.name);
    const imported = [...new Set(bareImports(example.source).map(packageOfSpecifier))];
    expect(imported.filter((name) => !example.installs.includes(name))).toEqual([]);
    expect(example.source.split('\n')[0]).toMatch(new RegExp(`^// npm install ${example.installs.join(' ')} +\\(Node [^)]+\\), then: node readme-example\\.mjs$`));
  });

  it('states the Node range and the peer ranges the package declares', () => {
    const requires = /^Requires: (.*)$/m.exec(example.readme)?.[1];
    expect(requires, 'a "Requires: Node `…`, `peer@range`, … (peer dependencies)." line').toBeDefined();
    const stated = [...(requires ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    const peers = [...publishedRanges(example.pkg, 'peerDependencies')].map(([name, range]) => `${name}@${range}`);
    expect(stated).toEqual([nodeRange(example.pkg), ...peers.sort()]);
  });
});

describe.each(listPublishedPackages().map((pkg) => [pkg.name, pkg] as const))('%s README', (_name, pkg) => {
  const readme = readFileSync(join(REPO_ROOT, pkg.dir, 'README.md'), 'utf8');

  it('names its own zod range and Node floor', () => {
    const zod = publishedRanges(pkg, 'peerDependencies').get('zod') ?? publishedRanges(pkg, 'dependencies').get('zod');
    // Every zod-4 range a README quotes is the package's own (ranges of other packages are given in words).
    for (const [quoted] of readme.matchAll(/`\^4\.\d+\.\d+`/g)) expect(quoted).toBe(`\`${zod}\``);
    const floor = /^>=\s*(\d+(?:\.\d+)*)$/.exec(nodeRange(pkg))?.[1]?.replace(/(\.0)+$/, '');
    for (const [, stated] of readme.matchAll(/\*\*Node >= ([\d.]+)\*\*/g)) expect(stated).toBe(floor);
  });
});

it('the root README and CONTRIBUTING.md name the packages’ zod range', () => {
  const text = ['README.md', 'CONTRIBUTING.md'].map((file) => readFileSync(join(REPO_ROOT, file), 'utf8')).join('\n');
  const zod = workspaceCatalog().get('zod');
  const quoted = [...text.matchAll(/`\^4\.\d+\.\d+`/g)].map(([range]) => range);
  expect(quoted.length).toBeGreaterThan(0);
  for (const range of quoted) expect(range).toBe(`\`${zod}\``);
});
