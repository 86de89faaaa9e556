// `tool-search init [--from FILE]`: writes a starter config; `--from` takes the `mcpServers` of a Claude Desktop,
// Claude Code or Cursor config (or VS Code's `servers`) as they are, `${...}` references kept unresolved.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { convertMcpServersConfig, isGatewayAdapterError } from '@tool-search/gateway-adapter/startup';
import { CliError } from '../cli-error.js';
import { modeFlag, type CommandRun } from '../command.js';
import { readJson5File } from '../load-config.js';

type Entry = Record<string, unknown>;

/** `tool-search init` (see its summary in `run-cli.ts`). */
export const runInit: CommandRun = async (context) => {
    const target = context.configPath;
    if (existsSync(target) && context.flags.force !== true) throw new CliError('io', `${target} exists; pass --force to overwrite it`);
    const mode = modeFlag(context) ?? 'tools';
    const imported = context.flags.from === undefined ? undefined : importServers(context.flags.from);
    for (const warning of imported?.warnings ?? []) context.output.progress(`warning: ${warning}`);
    const servers = imported?.servers ?? {};
    const text = starterConfig(servers, mode, context.flags.from);
    try {
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      // The servers' env may hold tokens: only the user reads the file.
      writeFileSync(target, text, { mode: 0o600 });
    } catch (error) {
      throw new CliError('io', `cannot write ${target}: ${(error as Error).message}`);
    }
    const names = Object.keys(servers);
    context.output.result({ path: target, servers: names, warnings: imported?.warnings ?? [] });
    context.output.line(`Wrote ${target}${names.length === 0 ? '' : ` with ${names.length} server${names.length === 1 ? '' : 's'}: ${names.join(', ')}`}`);
    context.output.line('Next: tool-search doctor, then add tool-search to your MCP client (see the README).');
    return 0;
};

/**
 * The server entries of another client's config, as written there (variables unresolved), minus the entries it
 * disabled and the fields nobody here reads; each thing left out is a warning naming its path.
 */
function importServers(path: string): { servers: Record<string, Entry>; warnings: string[] } {
  const input = readJson5File(path, 'Client config');
  const container = isObject(input) && isObject(input['mcp']) && input['mcpServers'] === undefined && input['servers'] === undefined ? input['mcp'] : input;
  const map = isObject(container) ? (container['mcpServers'] ?? container['servers']) : undefined;
  if (!isObject(map)) throw new CliError('config', `${path}: no "mcpServers" (Claude Desktop, Claude Code, Cursor) or "servers" (VS Code) object found`);
  const warnings: string[] = [];
  // Claude Code keeps servers per project too (`projects[folder].mcpServers` in ~/.claude.json): named, not imported.
  const projects = isObject(input) && isObject(input['projects']) ? input['projects'] : {};
  for (const [folder, project] of Object.entries(projects)) {
    const projectServers = isObject(project) && isObject(project['mcpServers']) ? Object.keys(project['mcpServers']) : [];
    for (const name of projectServers) {
      warnings.push(`${name}: a Claude Code server of the project ${folder} (projects[${JSON.stringify(folder)}].mcpServers.${name} in ${path}), not imported: add it to the config by hand if tool-search should serve it`);
    }
  }
  if (isObject(container) && container['inputs'] !== undefined) warnings.push(`${path}: VS Code "inputs" are not imported: replace each \${input:…} with \${env:NAME} and set NAME in the environment`);
  const servers: Record<string, Entry> = {};
  // Variables stay as written: the check resolves each to a placeholder, so nothing secret is read now.
  const anyValue = new Proxy({}, { get: () => 'x' }) as Record<string, string>;
  for (const [name, raw] of Object.entries(map)) {
    if (!isObject(raw)) throw new CliError('config', `${path}: mcpServers.${name}: expected an object`);
    const entry: Entry = { ...raw };
    if (entry['disabled'] === true) {
      warnings.push(`${name}: disabled in ${path}, not imported`);
      continue;
    }
    // Cursor's envFile is read by tool-search too (relative to the config file): a relative one is made absolute here.
    const envFile = entry['envFile'];
    delete entry['envFile'];
    let importable = true;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      try {
        const converted = convertMcpServersConfig({ mcpServers: { [name]: entry } }, { strict: true, env: anyValue, inputs: anyValue, variables: anyValue });
        for (const warning of converted.warnings) {
          const field = /^mcpServers\.[^ ]+?\.([A-Za-z0-9_]+) is ignored/.exec(warning)?.[1] ?? /^mcpServers\[[^\]]+\]\.([A-Za-z0-9_]+) is ignored/.exec(warning)?.[1];
          if (field !== undefined) delete entry[field];
          warnings.push(`${warning}; not imported`);
        }
        break;
      } catch (error) {
        const field = isGatewayAdapterError(error) ? /\.([A-Za-z0-9_$]+)$/.exec(error.path ?? '')?.[1] : undefined;
        if (field === undefined || !(field in entry) || !/unknown field/.test(error instanceof Error ? error.message : '')) {
          // This server cannot be used as written; the others still are.
          warnings.push(`${name}: not imported: ${error instanceof Error ? error.message : String(error)}`);
          importable = false;
          break;
        }
        delete entry[field];
        warnings.push(`${path}: mcpServers.${name}.${field} is not a field tool-search knows; not imported`);
      }
    }
    if (!importable) continue;
    if (typeof envFile === 'string') entry['envFile'] = envFile.includes('${') || isAbsolute(envFile) ? envFile : resolve(dirname(path), envFile);
    else if (envFile !== undefined) warnings.push(`${name}: envFile is not a file path (${typeof envFile}); not imported`);
    servers[name] = entry;
  }
  return { servers, warnings };
}

function starterConfig(servers: Record<string, Entry>, mode: string, from: string | undefined): string {
  const serversText = JSON.stringify(servers, null, 2).replace(/\n/g, '\n  ');
  const toolSearch = mode === 'direct' ? 'false' : `{ mode: '${mode}' }`;
  return [
    '// tool-search config (JSON5: comments and trailing commas are fine; unknown keys are errors).',
    `// ${from === undefined ? 'Add your MCP servers below, in the same shape as Claude Desktop\'s "mcpServers".' : `Servers imported from ${from}.`}`,
    '// Per server you may add: trusted, include, exclude (tool patterns), visible (tools always listed), timeoutMs.',
    '// Values may refer to the environment: "${env:GITHUB_TOKEN}".',
    '{',
    `  mcpServers: ${serversText},`,
    '',
    '  // How the model finds tools: "tools" (search, describe, call), "code" (one tool running JavaScript),',
    '  // "directory" (tools plus a list of names), or false: every tool up front (a plain aggregating proxy).',
    `  toolSearch: ${toolSearch},`,
    '',
    '  // Which tools may be found and called, by server and name, e.g. { deny: ["mcp:github:delete_*", "mcp:github:merge_*"] }.',
    '  // A hint rule ("hint:destructive") also refuses every tool that declares no annotations (MCP\'s default',
    '  // destructiveHint is true): use it only where the servers annotate their tools. doctor warns when a rule refuses a whole server.',
    '  policy: {},',
    '}',
    '',
  ].join('\n');
}

function isObject(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
