// The floor of an aggregated request: an extension API server of its own group (floor.bench.paddock.dev)
// that kube-apiserver's aggregator reaches exactly as it reaches Paddock — the same APIService path, TLS
// with Paddock's serving certificate, the aggregator's front-proxy client certificate verified — and that
// answers its one list with bytes it holds in memory (a copy of Paddock's answer). No cache, no
// authorization, no rendering: what a client waits for through kube-apiserver is what the path costs.
//
//   node aggregated-floor-server.mjs <serving cert> <key> <front-proxy CA> <body file> <port file>
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';

const [cert, key, clientCa, bodyFile, portFile] = process.argv.slice(2);
const GROUP_VERSION = 'floor.bench.paddock.dev/v1alpha1';
const LIST = `/apis/${GROUP_VERSION}/tenantnamespaces`;
const body = readFileSync(bodyFile);
// Discovery for the aggregator's availability probe: list only, so no controller lists or watches it.
const discovery = Buffer.from(JSON.stringify({
  kind: 'APIResourceList', apiVersion: 'v1', groupVersion: GROUP_VERSION,
  resources: [{ name: 'tenantnamespaces', singularName: 'tenantnamespace', namespaced: false, kind: 'TenantNamespace', verbs: ['get', 'list'] }],
}));

const server = createServer({ cert: readFileSync(cert), key: readFileSync(key), ca: readFileSync(clientCa), requestCert: true, rejectUnauthorized: true }, (req, res) => {
  const path = req.url.split('?')[0];
  const answer = path === LIST ? body : path === `/apis/${GROUP_VERSION}` ? discovery : undefined;
  if (!answer) {
    res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}');
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': answer.length, 'Cache-Control': 'no-cache, private' }).end(answer);
});
server.listen(0, '127.0.0.1', () => writeFileSync(portFile, String(server.address().port)));
process.on('SIGTERM', () => process.exit(0));
