// The SDK's resumability hook for Streamable HTTP, kept in memory and bounded: the last events of one MCP
// session, so a client that lost its SSE stream resumes with `Last-Event-ID` (and the priming event and
// `retry` field are sent). Older events are forgotten; a resume past them replays what is left.
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/** Events kept per session. */
const DEFAULT_MAX_EVENTS = 500;

export function createBoundedEventStore(maxEvents = DEFAULT_MAX_EVENTS): EventStore {
  const events: Array<{ id: string; streamId: string; message: JSONRPCMessage }> = [];
  let sequence = 0;
  return {
    async storeEvent(streamId, message) {
      sequence += 1;
      const id = `${streamId}_${sequence}`;
      events.push({ id, streamId, message });
      if (events.length > maxEvents) events.shift();
      return id;
    },
    async getStreamIdForEventId(eventId) {
      return events.find((event) => event.id === eventId)?.streamId ?? streamOf(eventId);
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = streamOf(lastEventId);
      const after = Number(lastEventId.slice(streamId.length + 1));
      for (const event of events) {
        if (event.streamId !== streamId || Number(event.id.slice(streamId.length + 1)) <= after) continue;
        await send(event.id, event.message);
      }
      return streamId;
    },
  };
}

/** The stream of an event id (`<streamId>_<n>`; stream ids may contain `_`). */
function streamOf(eventId: string): string {
  const cut = eventId.lastIndexOf('_');
  return cut === -1 ? eventId : eventId.slice(0, cut);
}
