// The floor of a watch hop in Node.js: an HTTPS server that relays each watch it is asked for to
// kube-apiserver (the same path and query, as the admin) and writes every chunk of kube-apiserver's
// stream to its client the moment it arrives — no parsing, no cache, no authorization, nothing else.
// It is what capsule-proxy does for a watch (one upstream watch per client watch, bytes copied through),
// on the runtime Paddock runs on: its hop is what any Node.js program pays to pass an event on.
//
//   node watch-relay-floor-server.mjs <serving cert> <key> <kube-apiserver URL> <CA> <client cert> <client key> <port file>
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:https';

const [cert, key, upstream, ca, clientCert, clientKey, portFile] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true, maxSockets: Infinity, ca: readFileSync(ca), cert: readFileSync(clientCert), key: readFileSync(clientKey) });

const server = createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (req, res) => {
  const up = request(upstream + req.url, { agent, headers: { Accept: 'application/json' } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, { 'Content-Type': answer.headers['content-type'] ?? 'application/json', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
    answer.on('data', (chunk) => res.write(chunk));
    answer.on('end', () => res.end());
    answer.on('error', () => res.destroy());
  });
  up.on('error', () => res.destroy());
  res.on('close', () => up.destroy());
  up.end();
});
server.listen(0, '127.0.0.1', () => writeFileSync(portFile, String(server.address().port)));
process.on('SIGTERM', () => process.exit(0));
