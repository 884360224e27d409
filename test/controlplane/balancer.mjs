// A TCP balancer for the test bed: the APIService reaches both Paddock replicas through it, as a
// Service spreads connections over the pods of a Deployment.
//
//   node balancer.mjs <state file> <port file>
//
// Listens on a free port of 127.0.0.1 and writes it to <port file>. Each new connection goes to the next
// replica listed in <state file> (`{"replicas":[{"port":…},…]}`, read again for every connection, so a
// restarted replica is found on its new port), skipping replicas that refuse it (one that is stopping
// or down). Each connection's backend port goes to stdout.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';

const [stateFile, portFile] = process.argv.slice(2);
if (!stateFile || !portFile) {
  console.error('usage: balancer.mjs <state file> <port file>');
  process.exit(2);
}

let next = 0;

function backends() {
  try {
    return JSON.parse(readFileSync(stateFile, 'utf8')).replicas.map((r) => r.port);
  } catch {
    return [];
  }
}

/** Connects `client` to the next backend that accepts, trying each at most once. */
function route(client, ports, tries) {
  if (tries >= ports.length) {
    client.destroy();
    return;
  }
  const port = ports[next++ % ports.length];
  const upstream = connect({ host: '127.0.0.1', port });
  upstream.once('error', () => route(client, ports, tries + 1));
  upstream.once('connect', () => {
    upstream.removeAllListeners('error');
    console.log(JSON.stringify({ connection: port, at: new Date().toISOString() }));
    // A side that ends has its end passed on by pipe once every byte before it is written; a side that
    // fails (reset, error) fails the other at once. Destroying on a clean close would drop the bytes
    // still queued for the slower peer: the tail of a response, the final chunk of a watch.
    const abort = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', abort).on('close', (failed) => failed && abort());
    upstream.on('error', abort).on('close', (failed) => failed && abort());
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  });
}

const server = createServer({ pauseOnConnect: true }, (client) => route(client, backends(), 0));
server.listen(0, '127.0.0.1', () => writeFileSync(portFile, String(server.address().port)));
process.on('SIGTERM', () => process.exit(0));
