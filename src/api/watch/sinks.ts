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
    end: () => ws.close(1000),
    destroy: () => ws.terminate(),
  };
}
