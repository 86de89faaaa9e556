// The client under test for the official MCP conformance suite (`@modelcontextprotocol/conformance client`).
// The suite starts a scenario server, runs this file with the server URL as its last argument and the scenario
// name in MCP_CONFORMANCE_SCENARIO (data such as client credentials in MCP_CONFORMANCE_CONTEXT), and checks what
// arrives on the wire. Every scenario goes through a tool-search host (`createToolSearchHost`) and a direct-mode
// session on it, the way a gateway reaches its servers: each tool the server lists is called by the name the
// session declares for it, through the session's policy, validation and call pipeline.
import { createMemoryTokenStore, createToolSearchHost, type McpServerConfig, type ToolSearchHost, type ToolSearchSession } from '../src/index.js';
import type { McpOAuthConfig } from '../src/schemas.js';

/** The server as a scenario sees it: the tools the session declares, a call by that name, and the end. */
interface ScenarioServer {
  tools(): string[];
  callTool(name: string, args: Record<string, unknown>): Promise<{ ok: true } | { ok: false; code: string; message: string }>;
  close(): Promise<void>;
}

/** The scenario's request, as the suite passes it. */
interface ScenarioInput {
  name: string;
  serverUrl: string;
  context: Record<string, unknown>;
}

/** What a scenario does with the connection once it is up. */
type ScenarioRun = (connection: ScenarioServer, input: ScenarioInput) => Promise<void>;

/** The redirect URL the suite's authorization servers accept. */
const REDIRECT_URL = 'http://localhost:3000/callback';
/** The client id metadata document URL the suite's CIMD scenario expects. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** The driver gives up on its own before the suite's 30 s timeout (which kills only the shell). */
const DRIVER_TIMEOUT_MS = 25_000;

/** Opens the scenario's server through a host and a direct-mode session; throws when the server is not ready. */
async function openServer(input: ScenarioInput): Promise<ScenarioServer> {
  const context = input.context;
  const oauth = oauthConfigFor(input.name, context);
  const config: McpServerConfig = { name: 'conformance', transport: 'http', url: input.serverUrl, ...(oauth === undefined ? {} : { oauth }) };
  const host: ToolSearchHost = await createToolSearchHost({
    sources: { mcp: [config] },
    mcpRequestTimeoutMs: 10_000,
    startupTimeoutMs: 20_000,
    restartBackoff: false,
    mcpClient: {
      oauth: {
        store: createMemoryTokenStore(),
        redirectUrl: REDIRECT_URL,
        // The suite's authorization server consents at once: the code is on the redirect.
        authorize: async ({ authorizationUrl }) => {
          const response = await fetch(authorizationUrl, { redirect: 'manual' });
          const location = response.headers.get('location');
          // The whole redirect query (code, state, iss), so the client checks the issuer (RFC 9207), as a browser flow would.
          return location === null ? undefined : new URL(location).searchParams;
        },
      },
      // The elicitation scenario answers with empty content: the client must fill in the schema's defaults.
      onElicitation: async () => ({ action: 'accept', content: {} }),
    },
  });
  // The first session waits for the server's start (up to startupTimeoutMs).
  const session: ToolSearchSession = await host.openSession({ config: false, callTimeoutMs: 10_000 });
  const server = host.status().servers[0];
  if (server?.state !== 'ready') {
    await host.close();
    throw new Error(`${server?.state ?? 'missing'}: ${server?.reason ?? ''}`);
  }
  let calls = 0;
  return {
    // The server's own tools, by the names the direct surface declares (the synthesized resource reader aside).
    tools: () => session.modelSurface().tools.filter((tool) => tool.kind === 'catalog' && tool.id !== 'mcp:conformance:read_resource').map((tool) => tool.name),
    callTool: async (name, args) => {
      const outcome = await session.execute({ name, args, toolCallId: `conformance-${++calls}` });
      if (outcome.status === 'ok') return { ok: true };
      return { ok: false, code: outcome.status === 'error' ? outcome.code : outcome.status, message: outcome.content };
    },
    close: () => host.close(),
  };
}

/** OAuth settings per scenario: pre-registered or machine credentials from the context, else a CIMD URL (DCR where unsupported). */
function oauthConfigFor(scenario: string, context: Record<string, unknown>): McpOAuthConfig | undefined {
  if (!scenario.startsWith('auth/')) return undefined;
  const credentials = {
    ...(typeof context['client_id'] === 'string' ? { clientId: context['client_id'] } : {}),
    ...(typeof context['client_secret'] === 'string' ? { clientSecret: context['client_secret'] } : {}),
  };
  if (scenario === 'auth/client-credentials-basic') return { grantType: 'client_credentials', ...credentials };
  if (scenario === 'auth/pre-registration') return credentials;
  return { clientMetadataUrl: CLIENT_METADATA_URL };
}

const callEveryTool: ScenarioRun = async (connection) => {
  for (const tool of connection.tools()) expectOk(await connection.callTool(tool, {}), tool);
};

/** Scenario name → what to do. Names not listed run `callEveryTool`. */
const SCENARIOS: Record<string, ScenarioRun> = {
  initialize: async () => undefined,
  tools_call: async (connection) => expectOk(await connection.callTool('add_numbers', { a: 2, b: 3 }), 'add_numbers'),
  'elicitation-sep1034-client-defaults': async (connection) =>
    expectOk(await connection.callTool('test_client_elicitation_defaults', {}), 'test_client_elicitation_defaults'),
  'sse-retry': async (connection) => expectOk(await connection.callTool('test_reconnection', {}), 'test_reconnection'),
  // The scenario lists one tool with a malformed header mapping beside a valid one: the valid one must still work.
  'http-invalid-tool-headers': async (connection) => expectOk(await connection.callTool('valid_tool', { region: 'us-west1' }), 'valid_tool'),
};

function expectOk(result: Awaited<ReturnType<ScenarioServer['callTool']>>, tool: string): void {
  if (!result.ok) throw new Error(`${tool}: ${result.code}: ${result.message}`);
}

async function main(): Promise<number> {
  const serverUrl = process.argv.at(-1);
  const name = process.env['MCP_CONFORMANCE_SCENARIO'];
  if (serverUrl === undefined || name === undefined || !/^https?:\/\//.test(serverUrl)) {
    process.stderr.write('usage: MCP_CONFORMANCE_SCENARIO=<scenario> driver <server-url>\n');
    return 2;
  }
  const context = process.env['MCP_CONFORMANCE_CONTEXT'] === undefined ? {} : (JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT']) as Record<string, unknown>);
  const input: ScenarioInput = { name, serverUrl, context };
  const connection = await openServer(input);
  try {
    await (SCENARIOS[name] ?? callEveryTool)(connection, input);
    return 0;
  } finally {
    await connection.close();
  }
}

const timer = setTimeout(() => {
  process.stderr.write(`driver: no result after ${DRIVER_TIMEOUT_MS} ms\n`);
  process.exit(1);
}, DRIVER_TIMEOUT_MS);
timer.unref();
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`driver: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
