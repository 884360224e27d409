// The transfer floor of a list: an HTTPS server (Paddock's serving certificate, TLS as Paddock serves it)
// that answers GET /?bytes=N with N bytes of JSON, streamed in 64 KiB pieces with backpressure as Paddock
// streams a list (waiting for a drain once 1 MiB is buffered) — no cache, no rendering, no authorization. What a client waits for it is what moving
// the bytes costs on this machine.
//
//   node floor-server.mjs <cert> <key> <port file>
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';

const [cert, key, portFile] = process.argv.slice(2);
const PIECE = 64 * 1024;
const HIGH_WATER = 1024 * 1024;

// `{"rows":[],"pad":"xxx…"}`: valid JSON of exactly `bytes` bytes (at least the frame), made once per
// size and kept (the last size asked for), so that a request costs the floor nothing but moving it.
let last = { bytes: -1, body: Buffer.alloc(0) };
function bodyOf(bytes) {
  if (last.bytes !== bytes) {
    const frame = '{"rows":[],"pad":""}';
    last = { bytes, body: Buffer.from(`{"rows":[],"pad":"${'x'.repeat(Math.max(0, bytes - frame.length))}"}`) };
  }
  return last.body;
}

const server = createServer({ cert: readFileSync(cert), key: readFileSync(key) }, async (req, res) => {
  const body = bodyOf(Number(new URL(req.url, 'https://x').searchParams.get('bytes') ?? 0));
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
  for (let at = 0; at < body.length; at += PIECE) {
    if (!res.write(body.subarray(at, at + PIECE)) && res.writableLength >= HIGH_WATER) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
});
server.listen(0, '127.0.0.1', () => writeFileSync(portFile, String(server.address().port)));
process.on('SIGTERM', () => process.exit(0));
