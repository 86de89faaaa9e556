// Policies that refuse whole owners of a catalog, four ways, and the two hosts (with and without the refused tools)
// every isolation suite reads side by side.

/** The ways `ownerRefusal` refuses owners: each is data, so a counterexample prints as the rule. */
export const OWNER_REFUSALS = ['deny-owner-globs', 'agent-layer', 'allow-the-others', 'deny-tool-ids'];

/** A policy (and the context it needs) refusing `refusedOwners`' OpenClaw tools among `tools`, the `kind` way. */
export function ownerRefusal(kind, tools, refusedOwners, admittedOwners) {
  switch (kind) {
    case 'deny-owner-globs':
      return { policy: { deny: refusedOwners.map((owner) => `*:${owner}:*`) }, context: {} };
    case 'agent-layer':
      return { policy: { agents: { main: { deny: refusedOwners.map((owner) => `openclaw:${owner}:*`) } } }, context: { agentId: 'main' } };
    case 'allow-the-others':
      return { policy: { allow: admittedOwners.map((owner) => `openclaw:${owner}:*`) }, context: {} };
    case 'deny-tool-ids':
      return { policy: { deny: tools.filter((tool) => refusedOwners.includes(tool.owner)).map((tool) => `openclaw:${tool.owner}:${tool.name}`) }, context: {} };
    default:
      throw new Error(`ownerRefusal: unknown kind "${kind}" (expected one of ${OWNER_REFUSALS.join(', ')}).`);
  }
}

/** `read` of a session opened with `options()` (called once a host) on each of `hosts`, in order; every session is closed after its read. */
export function answersOnEach(hosts, options, read) {
  return Promise.all(
    hosts.map(async (host) => {
      const session = await host.openSession(options());
      try {
        return await read(session);
      } finally {
        await session.close();
      }
    }),
  );
}
