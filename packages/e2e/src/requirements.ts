// The required behaviours of the end-to-end proof, in one place. Each names the test file that proves it;
// that file's test titles carry the id in brackets (e.g. `[P1]`). `requirements.test.ts` fails when a
// requirement has no test, or a test cites an id that is not listed here.

/** One required behaviour and the test file that proves it. */
export interface Requirement {
  id: string;
  text: string;
  /** Test file (relative to `src/`) whose test titles carry `[id]`. */
  testFile: string;
}

/** Every required behaviour of the end-to-end proof. */
export const REQUIREMENTS: readonly Requirement[] = [
  { id: 'P1', text: 'Direct mode can call the fake plugin tool (both wire formats).', testFile: 'proofs.test.ts' },
  {
    id: 'P2',
    text: 'Tool search can call the same fake plugin tool in code, tools and directory modes (both wire formats).',
    testFile: 'proofs.test.ts',
  },
  { id: 'P3', text: 'Direct mode exposes the fake plugin schemas to the provider.', testFile: 'proofs.test.ts' },
  {
    id: 'P4',
    text: 'Tool search exposes only the compact surface: no fake plugin schema up front in any mode, and only the described target later.',
    testFile: 'proofs.test.ts',
  },
  { id: 'P5', text: 'At 1,000 fake tools, code and tools mode request bodies are at most 2% of direct.', testFile: 'proofs.test.ts' },
  { id: 'P6', text: 'Session logs show the expected call counts and the bridge telemetry.', testFile: 'proofs.test.ts' },
  {
    id: 'N1',
    text: 'Native mode over OpenAI Responses (official openai client, JSON and SSE): one client-executed tool search, answered by our ranking, loads the target, which the model then calls by name.',
    testFile: 'proofs.test.ts',
  },
  {
    id: 'N2',
    text: 'Native mode over Anthropic Messages (official @anthropic-ai/sdk client, JSON and SSE): our tool_search answers with tool_reference blocks that load the target, which the model then calls by name.',
    testFile: 'proofs.test.ts',
  },
  {
    id: 'N3',
    text: 'Native mode over OpenAI Chat Completions falls back to tools mode, still reaches the target, and records why.',
    testFile: 'proofs.test.ts',
  },
  {
    id: 'N4',
    text: 'Native mode declares every allowed schema deferred; the model context holds only the search tool and client tools, then what the search loaded (schemas declared vs in context, per turn).',
    testFile: 'proofs.test.ts',
  },
  {
    id: 'N5',
    text: 'A denied tool never appears in any request of a native run (schemas and names, every raw body, both deferring formats).',
    testFile: 'failures.test.ts',
  },
  {
    id: 'N6',
    text: "Deferral on a chat endpoint (native mode, nativeSearch.chat: 'load', over OpenAI Chat): no catalog schema up front, the search loads the target as a function of the next request after the same tool bytes, and the model calls it by name (the demo's native (chat load) row).",
    testFile: 'proofs.test.ts',
  },
  { id: 'F1', text: 'A tool denied by policy is never returned by search nor callable.', testFile: 'failures.test.ts' },
  { id: 'F2', text: 'A tool whose MCP server was killed fails its call with a clear error.', testFile: 'failures.test.ts' },
  { id: 'F3', text: 'A call blocked by a hook reports the block.', testFile: 'failures.test.ts' },
  { id: 'F4', text: 'A call blocked by an approval reports the block.', testFile: 'failures.test.ts' },
  { id: 'F5', text: 'When the sandbox runtime cannot start, code mode falls back to tools mode and still completes.', testFile: 'failures.test.ts' },
  { id: 'F6', text: 'An exact hidden name called directly in directory mode is hydrated.', testFile: 'failures.test.ts' },
  { id: 'F7', text: 'A client tool colliding with a catalog name is rejected.', testFile: 'failures.test.ts' },
  {
    id: 'H1',
    text: 'The mock provider works with the official openai client unchanged: Responses and Chat Completions, JSON and SSE.',
    testFile: 'start-mock-provider.test.ts',
  },
  { id: 'H2', text: 'The fake plugin has N distinct tools with a strict { marker } schema, loaded by path.', testFile: 'write-fake-plugin.test.ts' },
  { id: 'H3', text: 'The MCP fixture is a real MCP server over stdio with a few dozen tools, paginated.', testFile: 'mcp-fixture.test.ts' },
  { id: 'H4', text: 'The gateway config is JSON5, strict on its own keys, with paths relative to the file.', testFile: 'load-gateway-config.test.ts' },
  {
    id: 'H6',
    text: 'The gateway hands a client tool call back to the caller as a function_call item (every wire format).',
    testFile: 'start-gateway.test.ts',
  },
  {
    id: 'H7',
    text: 'The gateway fails loudly: an invalid config at start (with its path), provider errors as 502, no streaming.',
    testFile: 'start-gateway.test.ts',
  },
  {
    id: 'H8',
    text: 'An MCP tool found by search is called over stdio through the gateway, its result marked untrusted.',
    testFile: 'start-gateway.test.ts',
  },
  {
    id: 'H9',
    text: 'The mock provider follows the documented native flows: tool_search_call and a tool_search_output of exactly the declared deferred definitions (Responses), tool_reference expansion (Messages); it refuses a call to a deferred tool no search loaded.',
    testFile: 'start-mock-provider.test.ts',
  },
  {
    id: 'H10',
    text: 'The mock provider serves Anthropic Messages to the official @anthropic-ai/sdk client unchanged (JSON and SSE, tool_use and tool_result), refusing what the API refuses.',
    testFile: 'start-mock-provider.test.ts',
  },
  {
    id: 'H11',
    text: "The agent loop hands the provider's tool search requests to the session in native mode (Responses tool_search_call, Anthropic tool_use of tool_search) and executes the loaded tools.",
    testFile: 'run-agent-loop.test.ts',
  },
  {
    id: 'H12',
    text: "Native mode on OpenAI Chat with nativeSearch.chat 'load' (an endpoint with no deferral): the tools a search loads are real functions of the next request, appended after a byte-identical prefix, bounded, and every call goes through policy and approvals.",
    testFile: 'chat-loading.test.ts',
  },
  { id: 'H5', text: 'The comparison runner reports every mode and fails when a proof fails.', testFile: 'run-comparison.test.ts' },
];

// A test title citing requirements: it('[P1] ...'), it(`[P1][P2] ...`), it.each(...)('[P2] ...').
const CITING_TITLE = /\bit(?:\.each\([^)]*\))?\(\s*['"`]((?:\[[A-Z]\d+\]\s*)+)/g;

/** The requirement ids cited by the test titles in one test file's source text. */
export function citedRequirementIds(testSource: string): Set<string> {
  const ids = new Set<string>();
  for (const match of testSource.matchAll(CITING_TITLE)) {
    for (const id of match[1]!.matchAll(/\[([A-Z]\d+)\]/g)) ids.add(id[1]!);
  }
  return ids;
}

/** Requirements with no citing test title in the file they name (`cited`: test file → ids cited there). */
export function untestedRequirements(requirements: readonly Requirement[], cited: ReadonlyMap<string, ReadonlySet<string>>): Requirement[] {
  return requirements.filter((requirement) => !cited.get(requirement.testFile)?.has(requirement.id));
}
