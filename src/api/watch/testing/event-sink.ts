/** A watch in memory, for the tests of the watch path: what a client would read, event by event. */
import type { KubeObject } from '../../../kube/types';
import type { ListOptions } from '../../request/list-options';
import type { Viewer } from '../../storage/viewer';
import type { WatchHub } from '../hub';
import type { Watcher, WatchSink } from '../watcher';

/** The events written to a watch, parsed line by line, and whether the stream ended. */
export class EventSink<T extends KubeObject = KubeObject> implements WatchSink {
  readonly events: { type: string; object: T }[] = [];
  bufferedBytes = 0;
  ended = false;
  write(bytes: Buffer): boolean {
    for (const line of bytes.toString().split('\n')) if (line) this.events.push(JSON.parse(line));
    return true;
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {}
  flush(): void {}
  onDrain(ready: () => void): void {
    setImmediate(ready);
  }
  /** `TYPE name` of each event. */
  get kinds(): string[] {
    return this.events.map((e) => `${e.type} ${e.object.metadata.name}`);
  }
}

/** Opens a JSON watch for `viewer` on `hub` into `sink` (HTTP transport, no bookmarks unless asked). */
export function watchInto<T extends KubeObject>(hub: WatchHub<T>, viewer: Viewer, options: Partial<ListOptions> = {}, sink: EventSink<T> = new EventSink<T>()): { sink: EventSink<T>; watcher: Watcher<T> } {
  const watcher = hub.serve(sink, {
    viewer,
    options: { limit: 0, watch: true, allowWatchBookmarks: false, ...options },
    negotiated: { mediaType: 'application/json', contentType: 'application/json', target: 'Object', pretty: false },
    includeObject: 'Metadata',
    transport: 'http',
  }, () => {});
  return { sink, watcher };
}
