import type { Arbitrary } from 'fast-check';

/** The seed every property suite uses under `pnpm test`, so a red CI run replays as it failed. */
export declare const PROPERTY_SEED: number;
/** Seed and run counts for `fc.assert`, from TOOL_SEARCH_FUZZ (a run multiplier) and TOOL_SEARCH_FUZZ_SEED. */
export declare function propertySettings(): {
  seed: number;
  /** The run count for a property whose `pnpm test` count is `runs`. */
  runs: (runs: number) => number;
};

/** The words the hundred-tool isolation suites build names, descriptions and queries from. */
export declare const ISOLATION_WORDS: readonly string[];
/** A draw from `words` driven by a xorshift32 stream of `seed` (0 counts as 1): the same seed, the same draws. */
export declare function seededPick<Word extends string>(words: readonly Word[], seed: number): () => Word;
/** The 32-bit FNV-1a hash of `text`: a stable, seed-free way for a rule given as data to pick tools. */
export declare function fnv1a(text: string): number;

export interface LocalTool {
  name: string;
  owner: string;
  description: string;
}
/** `size` local tools over owners `o0`… in owner order; a description word (`d<i>q`) is each tool's own. */
export declare function localTools(size: number, owners: number, seed: number): LocalTool[];
/** A local tool as a host source takes it: one `text` argument, and it answers with what it ran. */
export declare function executableTool<Tool extends LocalTool>(
  tool: Tool,
): Tool & { inputSchema: { type: 'object'; properties: { text: { type: 'string' } } }; execute: (args: Record<string, unknown>) => string };
/** A sandbox probe that reports a usable Node engine without starting one (the suites' runners are fakes). */
export declare function fakeProbe(): Promise<{ ok: true; engine: 'node'; nodePath: string; version: string; isolation: 'node-only' }>;
/**
 * The owners of `tools` in order of first appearance, split so the last `refusedOwners` of them (at most all but one)
 * are refused: the refused tools are the ones added last.
 */
export declare function refuseLastOwners<Tool extends { owner: string }>(
  tools: readonly Tool[],
  refusedOwners: number,
): { ownerNames: string[]; refusedOwners: string[]; admittedOwners: string[]; admitted: Tool[]; refused: Tool[] };
/**
 * The names of the `refused` tools that `text` shows: by description, or by name (followed by `nameEnd`, so a name
 * is not found inside a longer one) unless `echoed` says the name is one a probe asked for and may come back.
 */
export declare function shownRefusedTools<Tool extends { name: string; description: string }>(
  text: string,
  refused: readonly Tool[],
  options?: { echoed?: (tool: Tool) => boolean; nameEnd?: string },
): string[];

/** The words the adapter suites build tool names, descriptions, deny globs and queries from. */
export declare const ADAPTER_WORDS: readonly string[];
/** The owners the adapter suites' tools belong to. */
export declare const ADAPTER_OWNERS: readonly string[];
export interface RawTool {
  words: string[];
  owner: string;
  description: string[];
}
/** Raw tools: name words, an owner and description words (at most `maxDescriptionWords`), 1 to `maxTools` of them. */
export declare function rawToolsArbitrary(options: { maxDescriptionWords: number; maxTools: number }): Arbitrary<RawTool[]>;
/** A policy of `minRules` to 3 deny globs, each a word anywhere in an id or a whole owner. */
export declare function denyPolicyArbitrary(options: { minRules: number }): Arbitrary<{ deny: string[] }>;
/** Tools named `<words>_n<i>n` and described `<words> zq<i>q`; a run of tool `i` pushes `n<i>n` onto `ran`. */
export declare function markedTools(
  raw: readonly RawTool[],
  ran: string[],
): Array<{ name: string; owner: string; description: string; inputSchema: { type: 'object'; properties: { text: { type: 'string' } } }; execute: () => string }>;
/** `text` with every occurrence of each echo removed (what the model itself sent may come back to it). */
export declare function withoutEchoes(text: string, echoes: readonly string[]): string;

/** The ways `ownerRefusal` refuses owners: each is data, so a counterexample prints as the rule. */
export declare const OWNER_REFUSALS: readonly ['deny-owner-globs', 'agent-layer', 'allow-the-others', 'deny-tool-ids'];
export type OwnerRefusal = (typeof OWNER_REFUSALS)[number];
/** A policy (and the context it needs) refusing `refusedOwners`' OpenClaw tools among `tools`, the `kind` way. */
export declare function ownerRefusal(
  kind: OwnerRefusal,
  tools: readonly LocalTool[],
  refusedOwners: readonly string[],
  admittedOwners: readonly string[],
): { policy: { deny: string[] } | { allow: string[] } | { agents: { main: { deny: string[] } } }; context: { agentId?: string } };
/** `read` of a session opened with `options()` (called once a host) on each of `hosts`, in order; every session is closed after its read. */
export declare function answersOnEach<Options, Session extends { close(): Promise<unknown> }, Answer>(
  hosts: ReadonlyArray<{ openSession(options: Options): Promise<Session> }>,
  options: () => Options,
  read: (session: Session) => Promise<Answer>,
): Promise<Answer[]>;

/** The environment variable that carries the suite's timeout scale (a number >= 1) to every worker. */
export declare const TIMEOUT_SCALE_VARIABLE: 'TOOL_SEARCH_TIMEOUT_SCALE';
/** The largest scale the load alone gives. */
export declare const MAX_TIMEOUT_SCALE: number;
/** The 1-minute load average per core, and the share of the cores' time other work used over a short sample. */
export declare function measureMachineLoad(sampleMs?: number): { loadPerCore: number; busyShare: number };
/** The timeout scale for a measured load: from 1 (idle) to MAX_TIMEOUT_SCALE, in steps of 0.5. */
export declare function timeoutScaleFor(load: { loadPerCore: number; busyShare: number }): number;
/** The suite's timeout scale: TOOL_SEARCH_TIMEOUT_SCALE, or measured once and written there for the workers. */
export declare function timeoutScale(): number;
/** A test or hook timeout: `ms` (what the test needs on an idle machine) times the suite's timeout scale. */
export declare function scaledTimeout(ms: number): number;
