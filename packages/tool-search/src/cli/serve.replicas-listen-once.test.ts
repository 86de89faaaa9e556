// One list change that several replicas saw is told once: two `tool-search serve --http` replicas (the real bin) on
// one Debian redis-server (`--store`), each with its own stdio upstream (the fixture server, one process per
// replica), and both upstreams make the same change, as one upstream shared by every replica would show it to each.
// A client pinned to 2026-07-28 listens (`subscriptions/listen`) on each replica: each hears the change once, not
// once from its own upstream and again from the other replica through the shared event bus.
import type { Client } from '@modelcontextprotocol/client';
import { scaledTimeout } from '@tool-search/property-settings';
import { until } from '@tool-search/test-utils';
import { describe, expect, it } from 'vitest';
import { useListeningReplicas } from './listening-replicas.js';

const SLOW = { timeout: scaledTimeout(60_000) };
const { replicas, modernClient, toolNames } = useListeningReplicas('replicas-listen-once');

describe('serve --http replicas on one --store: a change several replicas saw', () => {
  it('tells a listener on each replica once about a change that both replicas saw', SLOW, async () => {
    const heard = [[], []] as [string[], string[]];
    const subscriptions = [];
    const listeners: Client[] = [];
    for (const [i, replica] of replicas.entries()) {
      const listener = await modernClient(replica.url);
      listener.setNotificationHandler('notifications/tools/list_changed', (notification) => void heard[i as 0 | 1].push(notification.method));
      subscriptions.push(await listener.listen({ toolsListChanged: true }));
      listeners.push(listener);
    }
    const change = (await toolNames(listeners[0]!)).find((name) => name.endsWith('change_tools'));
    expect(change).toBeDefined();
    // The same change on both replicas' upstreams, one after the other.
    for (const replica of replicas) await (await modernClient(replica.url)).callTool({ name: change!, arguments: {} });
    for (const listener of listeners) {
      for (let attempt = 0; !(await toolNames(listener)).some((name) => name.endsWith('added_later')); attempt++) {
        if (attempt > 200) throw new Error("gave up waiting for a replica's list to show the change");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    await until(() => heard.every((methods) => methods.length > 0), 'the list change on both listeners', 20_000);
    // Longer than a replica waits for its own sighting of a change another replica told (1 s): no second telling comes.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(heard).toEqual([['notifications/tools/list_changed'], ['notifications/tools/list_changed']]);
    await Promise.all(subscriptions.map((subscription) => subscription.close()));
  });
});
