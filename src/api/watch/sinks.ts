import type { ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import type { WatchSink } from './watcher';

/** A watch over chunked HTTP: each event is one JSON line of the response. */
export function httpSink(res: ServerResponse): WatchSink {
  return {
    write: (b) => res.write(b),
    get bufferedBytes() {
      return res.writableLength;
    },
    // Each res.write corks the socket and leaves the uncork to the next tick: after every microtask of this
    // turn, such as the reconciles the same change started. Uncorking here writes the event now.
    flush: () => {
      if (res.socket?.writableCorked) res.socket.uncork();
    },
    end: () => res.end(),
    destroy: () => res.destroy(),
  };
}

/** A watch over a WebSocket: each event is one text message (its JSON line without the newline). */
export function webSocketSink(ws: WebSocket): WatchSink {
  return {
    write: (b) => {
      ws.send(b.subarray(0, b.length - 1).toString('utf8'));
      return true;
    },
    get bufferedBytes() {
      return ws.bufferedAmount;
    },
    // ws writes each message to the socket as it is sent.
    flush: () => {},
    end: () => ws.close(1000),
    destroy: () => ws.terminate(),
  };
}
