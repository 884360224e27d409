/**
 * Image references and the repository name kubelet pulls for each, as github.com/distribution/reference
 * v0.6.0 (ParseNormalizedNamed, then Name()) gives it; `null` where the parser refuses the reference and
 * kubelet would not pull it. The Go oracle (test/clients/refcheck) must agree with every row: the table
 * is checked against it before any test relies on it.
 *
 * No row is refused by kube-apiserver's own Pod validation (an empty image, or one with leading or
 * trailing whitespace): each is one that only the tenant's admission policy can refuse.
 */
export interface ReferenceCase {
  ref: string;
  /** The repository name (domain/path, no tag or digest), or null when the parser refuses it. */
  name: string | null;
  about: string;
}

const a = (n: number, c = 'a') => c.repeat(n);
const SHA256 = `sha256:${'0123456789abcdef'.repeat(4)}`;
const HUB = 'docker.io/library/';

export const REFERENCES: ReferenceCase[] = [
  // Docker Hub, in every spelling the parser normalizes.
  { ref: 'nginx', name: `${HUB}nginx`, about: 'a single component is a Docker Hub official image' },
  { ref: 'nginx:1.27', name: `${HUB}nginx`, about: 'a tag' },
  { ref: `nginx@${SHA256}`, name: `${HUB}nginx`, about: 'a digest' },
  { ref: `nginx:1.27@${SHA256}`, name: `${HUB}nginx`, about: 'a tag and a digest' },
  { ref: 'library/nginx', name: `${HUB}nginx`, about: 'the official namespace written out' },
  { ref: 'docker.io/nginx', name: `${HUB}nginx`, about: 'docker.io and one component gets library/' },
  { ref: 'docker.io/library/nginx:1.27', name: `${HUB}nginx`, about: 'fully qualified' },
  { ref: 'index.docker.io/library/nginx', name: `${HUB}nginx`, about: 'the legacy Docker Hub host' },
  { ref: 'index.docker.io/nginx', name: `${HUB}nginx`, about: 'the legacy host and one component' },
  { ref: 'index.docker.io:443/library/nginx', name: 'index.docker.io:443/library/nginx', about: 'the legacy host with a port is another host' },
  { ref: 'docker.io:443/library/nginx', name: 'docker.io:443/library/nginx', about: 'docker.io with a port is another host' },
  { ref: 'Docker.io/nginx', name: 'Docker.io/nginx', about: 'docker.io in upper case is another host' },
  { ref: 'foo/bar', name: 'docker.io/foo/bar', about: 'a Docker Hub user namespace' },
  { ref: 'bitnami/redis:7', name: 'docker.io/bitnami/redis', about: 'a Docker Hub organisation' },
  { ref: 'docker.io', name: `${HUB}docker.io`, about: 'a host alone is a Docker Hub image name' },
  { ref: 'registry.example.com', name: `${HUB}registry.example.com`, about: 'an allowed host alone is a Docker Hub image name' },
  // A first component with an upper-case letter is a host.
  { ref: 'EVILHOST/x', name: 'EVILHOST/x', about: 'an upper-case first component is a host' },
  { ref: 'Localhost/x', name: 'Localhost/x', about: 'Localhost is a host by its upper case' },
  { ref: 'Internal-Registry/team/app', name: 'Internal-Registry/team/app', about: 'an upper-case host with a path' },
  { ref: 'Registry.Example.com/team/app', name: 'Registry.Example.com/team/app', about: 'upper case in a host is kept' },
  { ref: 'GHCR.IO/oil-org/app', name: 'GHCR.IO/oil-org/app', about: 'an allowed host written in upper case' },
  { ref: 'UPPER', name: null, about: 'upper case in a Docker Hub name' },
  { ref: 'registry.example.com/Team/app', name: null, about: 'upper case in a path' },
  // localhost, ports, IP addresses.
  { ref: 'localhost', name: `${HUB}localhost`, about: 'localhost alone is a Docker Hub image name' },
  { ref: 'localhost:5000', name: `${HUB}localhost`, about: 'localhost:5000 alone is Docker Hub localhost, tag 5000' },
  { ref: 'localhost/x', name: 'localhost/x', about: 'localhost is always a host' },
  { ref: 'localhost/library/nginx', name: 'localhost/library/nginx', about: 'localhost with the library path' },
  { ref: 'localhost:5000/app:v1', name: 'localhost:5000/app', about: 'localhost with a port' },
  { ref: 'my-registry:5000/team/app', name: 'my-registry:5000/team/app', about: 'a port makes a host without a dot' },
  { ref: 'example.com:port/x', name: null, about: 'a port that is not a number' },
  { ref: '127.0.0.1:5000/app', name: '127.0.0.1:5000/app', about: 'an IPv4 host and port' },
  { ref: '[::1]:5000/x', name: '[::1]:5000/x', about: 'an IPv6 host and port' },
  { ref: '[::1]/x', name: '[::1]/x', about: 'an IPv6 host' },
  { ref: '[2001:db8::1]:5000/oil/app', name: '[2001:db8::1]:5000/oil/app', about: 'a longer IPv6 host' },
  { ref: '[::g]:5000/x', name: null, about: 'not an IPv6 address' },
  { ref: '[::1/x', name: null, about: 'an unclosed IPv6 bracket' },
  // Hosts and paths.
  { ref: 'registry.example.com/team/app:2', name: 'registry.example.com/team/app', about: 'an allowed host' },
  { ref: 'registry.example.com:5000/team/app', name: 'registry.example.com:5000/team/app', about: 'an allowed host on another port' },
  { ref: `ghcr.io/oil-org/app@${SHA256}`, name: 'ghcr.io/oil-org/app', about: 'an allowed path prefix, with a digest' },
  { ref: 'ghcr.io/oil-org', name: 'ghcr.io/oil-org', about: 'exactly an allowed prefix' },
  { ref: 'ghcr.io/oil-org-fork/app', name: 'ghcr.io/oil-org-fork/app', about: 'a prefix only by its characters' },
  { ref: 'ghcr.io/oil-org/app:TAG_Upper-1.0', name: 'ghcr.io/oil-org/app', about: 'upper case in a tag' },
  { ref: 'quay.io/evil/miner:1', name: 'quay.io/evil/miner', about: 'another registry' },
  { ref: 'evil.io/payload:latest', name: 'evil.io/payload', about: 'another registry' },
  { ref: 'foo_bar.com/x', name: 'foo_bar.com/x', about: 'an underscore: not a host, so the whole is a path' },
  // Forms the parser refuses.
  { ref: 'registry.example.com./app', name: null, about: 'a trailing dot on a host' },
  { ref: 'nginx.', name: null, about: 'a trailing dot on a name' },
  { ref: 'registry.example.com/app.', name: null, about: 'a trailing dot on a path' },
  { ref: 'ghcr.io/oil-org/', name: null, about: 'a trailing slash' },
  { ref: 'ghcr.io//oil-org/app', name: null, about: 'an empty path component' },
  { ref: '-bad.com/x', name: null, about: 'a host starting with a dash' },
  { ref: 'http://registry.example.com/x', name: null, about: 'a URL' },
  { ref: 'registry.example.com/x y', name: null, about: 'a space' },
  { ref: 'registry.exämple.com/x', name: null, about: 'a non-ASCII host' },
  { ref: 'ghcr.io/oil-org/app:', name: null, about: 'an empty tag' },
  { ref: 'nginx:latest:extra', name: null, about: 'two tags' },
  // Digests: a known algorithm, lower-case hex of its exact length.
  { ref: 'nginx@sha256:abc', name: null, about: 'a digest too short' },
  { ref: `nginx@sha256:${a(64, 'A')}`, name: null, about: 'a digest in upper case' },
  { ref: `nginx@sha256:${a(65)}`, name: null, about: 'a digest too long for sha256' },
  { ref: `nginx@sha384:${a(96)}`, name: `${HUB}nginx`, about: 'a sha384 digest' },
  { ref: `nginx@sha512:${a(128)}`, name: `${HUB}nginx`, about: 'a sha512 digest' },
  { ref: `nginx@md5:${a(32)}`, name: null, about: 'an unsupported digest algorithm' },
  { ref: `nginx@SHA256:${a(64)}`, name: null, about: 'an upper-case digest algorithm' },
  { ref: a(64, 'f'), name: null, about: '64 hex characters: an image ID, not a name' },
  { ref: a(63, 'f'), name: `${HUB}${a(63, 'f')}`, about: '63 hex characters: a name' },
  { ref: `docker.io/${a(64, 'f')}`, name: `${HUB}${a(64, 'f')}`, about: '64 hex characters under a host: a name' },
  // Lengths: the path (the name without its host) is at most 255 characters, a tag at most 128.
  { ref: `registry.example.com/${a(255)}`, name: `registry.example.com/${a(255)}`, about: 'a path of 255 characters' },
  { ref: `registry.example.com/${a(256)}`, name: null, about: 'a path of 256 characters' },
  { ref: a(247), name: `${HUB}${a(247)}`, about: 'library/ and 247 characters: a path of 255' },
  { ref: a(248), name: null, about: 'library/ and 248 characters: a path of 256' },
  { ref: `foo_bar.com/${a(243)}`, name: `foo_bar.com/${a(243)}`, about: 'no host: a path of 255 with its first component' },
  { ref: `foo_bar.com/${a(244)}`, name: null, about: 'no host: a path of 256 with its first component' },
  { ref: `registry.example.com/app:${a(128)}`, name: 'registry.example.com/app', about: 'a tag of 128 characters' },
  { ref: `registry.example.com/app:${a(129)}`, name: null, about: 'a tag of 129 characters' },
  {
    ref: `${a(200)}.example.com/${a(255)}:${a(128)}@sha512:${a(128)}`,
    name: `${a(200)}.example.com/${a(255)}`,
    about: 'every part at its longest, 733 characters',
  },
  { ref: a(2000), name: null, about: '2000 characters' },
];
