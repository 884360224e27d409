import type { IncomingMessage } from 'node:http';

/**
 * Calls `line(text, at)` for each newline-terminated line of a streamed response (a watch), `at` being
 * when the chunk that completed it arrived (`performance.now()`). A partial last line waits for the rest.
 */
export function eachLine(res: IncomingMessage, line: (text: string, at: number) => void): void {
  let buffered = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    const at = performance.now();
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const text = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      line(text, at);
    }
  });
}

/** Calls `event(value, at)` for each line of a watch that is not blank, parsed as JSON. */
export function eachJsonLine<T>(res: IncomingMessage, event: (value: T, at: number) => void): void {
  eachLine(res, (text, at) => {
    if (text.trim() !== '') event(JSON.parse(text) as T, at);
  });
}
