import type { Transport } from '@modelcontextprotocol/client';

/**
 * The SDK runs a notification handler a microtask late but handles a response at once, so a progress notification
 * read in the same chunk as the result of its call finds the call's progress handler gone. Each incoming message
 * is delivered one microtask after the one before, once that one's notification handlers have run.
 */
export function deliverInOrder(transport: Transport): void {
  let handler: Transport['onmessage'];
  let chain = Promise.resolve();
  const deliver: NonNullable<Transport['onmessage']> = (message, extra) => {
    chain = chain.then(() => {
      try {
        handler?.(message, extra);
      } catch (error) {
        transport.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    });
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (handler === undefined ? undefined : deliver),
    set: (next: Transport['onmessage']) => {
      handler = next;
    },
  });
}
