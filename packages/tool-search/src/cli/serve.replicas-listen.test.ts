// List changes across replicas: two `tool-search serve --http` replicas (the real bin) on one Debian redis-server
// (`--store`), each with its own stdio upstream (the fixture server, one process per replica). A client pinned to
// 2026-07-28 listens (`subscriptions/listen`) on replica 1; another client changes the tool list of replica 2's
// upstream. Replica 1's own upstream did not change: the listener hears it only through the shared event bus.
import { scaledTimeout } from '@tool-search/property-settings';
import { until } from '@tool-search/test-utils';
import { describe, expect, it } from 'vitest';
import { useListeningReplicas } from './listening-replicas.js';

const SLOW = { timeout: scaledTimeout(60_000) };
const { replicas, modernClient, toolNames } = useListeningReplicas('replicas-listen');

describe('serve --http replicas on one --store: list changes', () => {
  it("tells a listener on one replica about a change that only another replica's upstream made", SLOW, async () => {
    const [one, two] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const listener = await modernClient(one.url);
    const heard: string[] = [];
    listener.setNotificationHandler('notifications/tools/list_changed', (notification) => void heard.push(notification.method));
    const before = await toolNames(listener);
    const removed = before.find((name) => name.endsWith('remove_me'));
    const change = before.find((name) => name.endsWith('change_tools'));
    expect(removed).toBeDefined();
    expect(change).toBeDefined();
    const subscription = await listener.listen({ toolsListChanged: true });
    const changer = await modernClient(two.url);
    await changer.callTool({ name: change!, arguments: {} });
    // Replica 2's upstream swapped its tools; the listener on replica 1 hears it through Redis.
    await until(() => heard.length > 0, 'the list change on the listener of replica 1', 20_000);
    expect(heard[0]).toBe('notifications/tools/list_changed');
    for (let attempt = 0; !(await toolNames(changer)).some((name) => name.endsWith('added_later')); attempt++) {
      if (attempt > 200) throw new Error("gave up waiting for replica 2's list to show the change");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Replica 1's own upstream did not change: the notification did not come from it.
    expect(await toolNames(listener)).toEqual(before);
    await subscription.close();
  });
});
