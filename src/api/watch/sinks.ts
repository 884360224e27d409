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
    // Without a write past the response's high-water mark there is no 'drain' to wait for: the socket took
    // everything (or holds less than that mark), and the next slice comes in the next turn.
    onDrain: (ready) => {
      if (!res.writableNeedDrain || res.destroyed) return void setImmediate(ready);
      const done = (): void => {
        res.off('drain', done);
        res.off('close', done);
        ready();
      };
      res.on('drain', done);
      res.on('close', done);
    },
    end: () => res.end(),
    destroy: () => res.destroy(),
  };
}

/** A watch over a WebSocket: each event is one text message (its JSON line without the newline). */
export function webSocketSink(ws: WebSocket): WatchSink {
  // Messages handed to ws and not yet written out (each send's callback runs then, or when it fails).
  let sending = 0;
  const drained: (() => void)[] = [];
  const sent = (): void => {
    if (--sending === 0) for (const ready of drained.splice(0)) ready();
  };
  return {
    write: (b) => {
      sending++;
      ws.send(b.subarray(0, b.length - 1).toString('utf8'), sent);
      return true;
    },
    get bufferedBytes() {
      return ws.bufferedAmount;
    },
    // ws writes each message to the socket as it is sent.
    flush: () => {},
    onDrain: (ready) => {
      if (sending === 0 || ws.readyState !== ws.OPEN) setImmediate(ready);
      else drained.push(ready);
    },
    end: () => ws.close(1000),
    destroy: () => ws.terminate(),
  };
}
