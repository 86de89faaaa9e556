// The READMEs say what the packages declare: every JS/TS block of a published README is one of its
// examples/readme-example*.mjs whole (run from the packed tarballs by readme-examples.consumer.test.ts), or is
// listed below as shown, not run, with the reason; each example imports only what its install line installs; each
// adapter's "Requires:" line is its package's engines and peers; every README's zod range and Node floor are its
// package's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listPublishedPackages, REPO_ROOT } from './published-packages.ts';
import { bareImports, listReadmeExamples, nodeRange, packageOfSpecifier, publishedRanges, scriptBlocks, workspaceCatalog } from './readme-examples.ts';

const examples = listReadmeExamples();

/** The README blocks that are shown, not run: the package folder, a line the block holds, and why no test runs it. */
const SHOWN_NOT_RUN: readonly { readonly dir: string; readonly holds: string; readonly reason: string }[] = [
  {
    dir: 'packages/catalog',
    holds: "createOpenAiEmbedder({ baseUrl: 'http://localhost:11434/v1'",
    reason: 'needs an embedding endpoint (an OpenAI-compatible server such as Ollama); the test machine has none and no network',
  },
  {
    dir: 'packages/tool-search',
    holds: "import { query } from '@anthropic-ai/claude-agent-sdk';",
    reason: 'a client configuration: query() starts Claude Code, which needs an Anthropic API key and calls the model over the network; the `tool-search serve` it starts is what the CLI tests run with the official SDK client',
  },
];

const ADAPTERS = ['@tool-search/adk', '@tool-search/ai-sdk', '@tool-search/langchain', '@tool-search/mastra', '@tool-search/openai-agents'];

/** A check registered only where it applies (a package or file it does not apply to has no such test, rather than a skipped one). */
const itWhen = (applies: boolean) => (applies ? it : (_name: string, _check: () => void) => undefined);

it('finds every README example, by package and file', () => {
  expect(examples.map((example) => `${example.pkg.dir.split('/')[1]}/${example.file}`)).toEqual(EXPECTED_EXAMPLES);
});

describe.each(examples.map((example) => [`${example.pkg.name} ${example.file}`, example] as const))('%s', (_name, example) => {
  it('is shown whole in the README, with what it prints', () => {
    expect(example.readme).toContain(`\`\`\`js\n${example.source}\`\`\``);
    expect(example.readme).toContain(`\`\`\`text\n${example.expected}\`\`\``);
  });

  it('imports only what the README’s install line installs', () => {
    expect(example.installs[0], 'an `npm install <this package> …` or `pnpm add <this package> …` sh block').toBe(example.pkg.name);
    const imported = [...new Set(bareImports(example.source).map(packageOfSpecifier))];
    expect(imported.filter((name) => !example.installs.includes(name))).toEqual([]);
  });

  itWhen(example.file === 'readme-example.mjs')('opens with the install line and the Node it needs', () => {
    expect(example.source.split('\n')[0]).toMatch(new RegExp(`^// npm install ${example.installs.join(' ')} +\\(Node [^)]+\\), then: node readme-example\\.mjs$`));
  });

  itWhen(ADAPTERS.includes(example.pkg.name))('states the Node range and the peer ranges the package declares', () => {
    const requires = /^Requires: (.*)$/m.exec(example.readme)?.[1];
    expect(requires, 'a "Requires: Node `…`, `peer@range`, … (peer dependencies)." line').toBeDefined();
    const stated = [...(requires ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    const peers = [...publishedRanges(example.pkg, 'peerDependencies')].map(([name, range]) => `${name}@${range}`);
    expect(stated).toEqual([nodeRange(example.pkg), ...peers.sort()]);
  });
});

describe.each(listPublishedPackages().map((pkg) => [pkg.name, pkg] as const))('%s README blocks', (_name, pkg) => {
  const readme = readFileSync(join(REPO_ROOT, pkg.dir, 'README.md'), 'utf8');
  const own = examples.filter((example) => example.pkg.name === pkg.name);
  const shown = SHOWN_NOT_RUN.filter((entry) => entry.dir === pkg.dir);

  it('shows every JS/TS block as a README example file whole, or as a block listed as shown, not run', () => {
    const unrun = scriptBlocks(readme).filter((block) => !own.some((example) => example.source === block) && !shown.some((entry) => block.includes(entry.holds)));
    expect(unrun, 'a JS/TS block no test runs: make it examples/readme-example-<topic>.mjs, or list it in SHOWN_NOT_RUN with the reason').toEqual([]);
  });

  itWhen(shown.length > 0)('lists as shown, not run, only blocks it has (one each), each with a reason', () => {
    for (const entry of shown) {
      expect(scriptBlocks(readme).filter((block) => block.includes(entry.holds)), entry.holds).toHaveLength(1);
      expect(entry.reason.length).toBeGreaterThan(20);
    }
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

const EXPECTED_EXAMPLES = [
  'adk/readme-example.mjs',
  'ai-sdk/readme-example.mjs',
  'catalog/readme-example.mjs',
  'catalog/readme-example-wordnet.mjs',
  'gateway-adapter/readme-example.mjs',
  'gateway-adapter/readme-example-session.mjs',
  'langchain/readme-example.mjs',
  'mastra/readme-example.mjs',
  'mcp-server/readme-example.mjs',
  'modes/readme-example.mjs',
  'modes/readme-example-native-search.mjs',
  'openai-agents/readme-example.mjs',
  'policy/readme-example.mjs',
  'policy/readme-example-scope-cache.mjs',
  'policy/readme-example-content-cache.mjs',
  'redis-store/readme-example.mjs',
  'sandbox-runner/readme-example.mjs',
  'tool-search/readme-example.mjs',
];
