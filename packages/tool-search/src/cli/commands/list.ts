// `tool-search list`: every tool your servers offer that the policy lets through, by id.
import type { CommandRun } from '../command.js';
import { firstLine, openCliSession } from '../open-session.js';
import { startHost } from '../start-host.js';

/** `tool-search list` (see its summary in `run-cli.ts`). */
export const runList: CommandRun = async (context) => {
    const config = context.config();
    const started = await startHost(config, { logger: context.logger, output: context.output, interactiveOAuth: false });
    try {
      // Direct mode declares every allowed tool: the list is exactly what the policy admits.
      const session = await openCliSession(started.host, config, false);
      await started.settled(0);
      const tools = session
        .modelSurface()
        .tools.filter((tool) => tool.id !== undefined)
        .map((tool) => ({ id: tool.id!, name: tool.name, description: session.tool(tool.id!)?.description ?? tool.description }))
        .sort((left, right) => left.id.localeCompare(right.id));
      context.output.result({ tools, servers: started.host.status().servers.map(({ name, state, tools: count, reason }) => ({ name, state, tools: count, ...(reason === undefined ? {} : { reason }) })) });
      let owner: string | undefined;
      for (const tool of tools) {
        const server = tool.id.split(':').slice(0, 2).join(':');
        if (server !== owner) {
          owner = server;
          context.output.line(`${server}`);
        }
        context.output.line(`  ${tool.id.slice(server.length + 1).padEnd(32)} ${firstLine(tool.description, 80)}`);
      }
      context.output.line(`${tools.length} tool${tools.length === 1 ? '' : 's'}`);
      await session.close();
      return 0;
    } finally {
      await started.close();
    }
};
