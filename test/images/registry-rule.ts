/**
 * The rule a Tenant's `containerRegistries.allowed` states, applied to the repository name kubelet's
 * parser gives an image (see test/clients/refcheck): the tests' expectation of what kube-apiserver
 * accepts. An image the parser refuses is refused; otherwise its name must equal an entry or continue
 * it at a `/`. An entry on the legacy Docker Hub host `index.docker.io` stands for `docker.io`, as the
 * parser reads that host.
 */
export function normalizedEntry(entry: string): string {
  return entry === 'index.docker.io' || entry.startsWith('index.docker.io/') ? `docker.io${entry.slice('index.docker.io'.length)}` : entry;
}

/** Whether a Tenant allowing `entries` accepts an image whose parsed name is `name` (undefined: unparsable). */
export function allowedBy(name: string | undefined, entries: string[]): boolean {
  if (name === undefined) return false;
  return entries.map(normalizedEntry).some((e) => name === e || name.startsWith(`${e}/`));
}
