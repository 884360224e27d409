/**
 * Image references read in CEL exactly as kubelet reads them, for the registry check of the restrictions
 * policy (SPEC §9 containerRegistries). kubelet parses an image with github.com/distribution/reference
 * (v0.6.0) `ParseNormalizedNamed`, refuses to pull one it cannot parse, and pulls `Name()`: the
 * repository, `domain/path`, without tag or digest. The CEL here computes that name, step by step as the
 * parser does, or finds that the parser would refuse the reference:
 *
 * 1. A reference of more than MAX_IMAGE_LENGTH characters is refused before any regular expression runs
 *    (the Pod API does not bound image strings; CEL charges `matches` by the length of its input).
 * 2. A reference of 64 lower-case hex characters is an image ID, not a name: refused.
 * 3. splitDockerDomain: the part before the first `/` is the domain when it contains `.` or `:`, is
 *    `localhost`, or has an upper-case letter; `index.docker.io` is `docker.io`. Otherwise, and for a
 *    reference without `/`, the domain is `docker.io` and the whole reference is the remainder. On
 *    `docker.io`, a remainder without `/` gets `library/`.
 * 4. `domain/remainder` must match the reference grammar (REFERENCE, anchored).
 * 5. The path (the name without a leading component that the grammar reads as a domain) is at most
 *    MAX_PATH_LENGTH characters, and a digest names sha256, sha384 or sha512 in lower-case hex of its
 *    length (go-digest's Parse with those hashes linked in, as they are in kubelet).
 *
 * The parser's further check, that the remainder up to its first `:` is lower case, is implied by 4 and
 * 5: the grammar's paths are lower case, and an upper-case letter before the first `:` outside the path
 * can only be in a digest algorithm, which 5 refuses.
 *
 * Each step is a policy variable that maps a list of tuples of strings (CEL lists are homogeneous), one
 * per image and in the images' order, whose first element is always the image as written, so that a
 * refusal can name it. A step that finds an image invalid cuts its tuple to `[image]`, and every later
 * step passes such a tuple on unchanged: the steps only map, so the cost of the whole stays linear in
 * the number of images (kube-apiserver cancels an expression past its cost budget). Pure: no I/O.
 */

// ---- The reference grammar, piece by piece with the names of the parser's regexp.go ----

const anyTimes = (...res: string[]) => `(?:${res.join('')})*`;
const optional = (...res: string[]) => `(?:${res.join('')})?`;
const capture = (...res: string[]) => `(${res.join('')})`;
const anchored = (...res: string[]) => `^${res.join('')}$`;

const alphanumeric = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const domainNameComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const optionalPort = '(?::[0-9]+)?';
const tag = '[\\w][\\w.-]{0,127}';
/** regexp.go writes the hex digits `[[:xdigit:]]`: the same class, in a form every engine reads alike. */
const digestPat = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9A-Fa-f]{32,}';
const identifier = '([a-f0-9]{64})';
const ipv6address = '\\[(?:[a-fA-F0-9:]+)\\]';
const domainName = domainNameComponent + anyTimes('\\.', domainNameComponent);
const host = `(?:${domainName}|${ipv6address})`;
const domainAndPort = host + optionalPort;
/** One component of a repository path: lower case, separators only between alphanumerics. */
export const PATH_COMPONENT = alphanumeric + anyTimes(separator, alphanumeric);
const remoteName = PATH_COMPONENT + anyTimes('/', PATH_COMPONENT);
const namePat = optional(domainAndPort, '/') + remoteName;

/** A whole reference: name, optional tag, optional digest (the parser's ReferenceRegexp). */
export const REFERENCE = anchored(capture(namePat), optional(':', capture(tag)), optional('@', capture(digestPat)));
/** An image ID, which the parser refuses as a name (anchoredIdentifierRegexp). */
export const IDENTIFIER = anchored(identifier);
/** A leading name component that the grammar reads as a domain (the first group of anchoredNameRegexp). */
export const DOMAIN = anchored(domainAndPort);
/** A digest go-digest accepts: a hash kubelet has, its exact length of lower-case hex. */
export const DIGEST = anchored('(?:sha256:[a-f0-9]{64}|sha384:[a-f0-9]{96}|sha512:[a-f0-9]{128})');

/** A lower-case host label of the grammar (domainNameComponent). */
const hostLabel = '[a-z0-9](?:[-a-z0-9]*[a-z0-9])?';
const port = ':[0-9]+';
/**
 * An allowed registry entry: a host with an optional port, and an optional path of the grammar's
 * components, all lower case. The host is one the parser reads as a host in front of a path: it
 * contains a dot or a port, or is `localhost` (a first component in upper case is a host too, but an
 * entry is lower case, and the names it is compared with keep their case). An entry of another form
 * could match no image. The Tenant CRD's pattern is this same text (a unit test holds them equal), read
 * alike by RE2 and JavaScript.
 */
export const REGISTRY_ENTRY = anchored(
  `(?:localhost(?:${port})?|${hostLabel}(?:\\.${hostLabel})+(?:${port})?|${hostLabel}${port})`,
  anyTimes('/', PATH_COMPONENT),
);

/** The parser's limit on a repository path (RepositoryNameTotalLengthMax). */
export const MAX_PATH_LENGTH = 255;
/**
 * Longer references are refused unread. Every part the parser bounds at its longest (a path of 255, a
 * tag of 128, a sha512 digest, their separators: 521 characters) leaves 503 for the domain, which DNS
 * bounds at 253: the only references refused here that the parser takes name a host no DNS can resolve.
 */
export const MAX_IMAGE_LENGTH = 1024;

export const DOCKER_HUB = 'docker.io';
export const LEGACY_DOCKER_HUB = 'index.docker.io';

// ---- CEL ----

/** A CEL raw string literal; none of the patterns holds a quote. */
const re = (pattern: string) => `r'${pattern}'`;

/** An image shown in a refusal: long ones cut, so that the message stays readable. */
const shown = (i: string) => `(size(${i}) > 200 ? ${i}.substring(0, 200) + '...' : ${i})`;

/** `step` applied to the tuples `p` still valid; an invalid image's `[image]` passes on. */
const onValid = (step: string) => `map(p, size(p) == 1 ? p : ${step})`;

/**
 * The policy variables that read `variables.<images>` (a list of image strings) and the tenant's
 * allowed entries in `variables.<registries>`, ending in:
 * - `invalidImages`: the images kubelet would not pull (too long to read, or unparsable), as shown;
 * - `badImages`: the valid images whose name no allowed entry matches, as written.
 */
export function imageVariables(images: string, registries: string): { name: string; expression: string }[] {
  const hub = `'${DOCKER_HUB}'`;
  // p = [image, first component or '' when the image has no '/', rest]. lowerAscii where the parser
  // lowers Unicode: a non-ASCII letter fails the grammar whichever way the image is split.
  const hostFirst = "p[1] != '' && (p[1] == 'localhost' || p[1].contains('.') || p[1].contains(':') || p[1].lowerAscii() != p[1])";
  return [
    {
      // [image, part before the first '/' or '', part after it or the image]; [image] for an image too
      // long to read (checked first: no regular expression reads it) or an image ID. Images arrive typed
      // dyn: string() makes the tuples homogeneous.
      name: 'imageParts',
      expression:
        `variables.${images}.map(i, string(i)).map(i, size(i) > ${MAX_IMAGE_LENGTH} || i.matches(${re(IDENTIFIER)}) ? [i] : ` +
        "i.contains('/') ? [i, i.substring(0, i.indexOf('/')), i.substring(i.indexOf('/') + 1)] : [i, '', i])",
    },
    {
      // [image, domain, remainder] as splitDockerDomain splits them.
      name: 'imageSplits',
      expression: `variables.imageParts.${onValid(`${hostFirst} ? [p[0], p[1] == '${LEGACY_DOCKER_HUB}' ? ${hub} : p[1], p[2]] : [p[0], ${hub}, p[0]]`)}`,
    },
    {
      // [image, domain/remainder], kept where the grammar accepts the whole reference.
      name: 'imageFulls',
      expression:
        `variables.imageSplits.${onValid(`[p[0], p[1] + '/' + (p[1] == ${hub} && !p[2].contains('/') ? 'library/' + p[2] : p[2])]`)}` +
        `.${onValid(`p[1].matches(${re(REFERENCE)}) ? p : [p[0]]`)}`,
    },
    {
      // [image, name with tag, digest or ''].
      name: 'imageRefs',
      expression: `variables.imageFulls.${onValid("[p[0], p[1].split('@')[0], p[1].contains('@') ? p[1].substring(p[1].indexOf('@') + 1) : '']")}`,
    },
    {
      // [image, name], kept where a digest is one kubelet accepts. A ':' after the last '/' starts the tag.
      name: 'imageNames',
      expression:
        `variables.imageRefs.${onValid(
          `p[2] != '' && !p[2].matches(${re(DIGEST)}) ? [p[0]] : ` +
            "[p[0], p[1].lastIndexOf(':') > p[1].lastIndexOf('/') ? p[1].substring(0, p[1].lastIndexOf(':')) : p[1]]",
        )}`,
    },
    {
      // [image, name], kept where the path is not too long. The name always holds a '/'.
      name: 'imagesParsed',
      expression:
        `variables.imageNames.${onValid(
          `size(p[1].substring(0, p[1].indexOf('/')).matches(${re(DOMAIN)}) ? p[1].substring(p[1].indexOf('/') + 1) : p[1]) <= ${MAX_PATH_LENGTH} ? p : [p[0]]`,
        )}`,
    },
    {
      name: 'invalidImages',
      expression: `variables.imagesParsed.filter(p, size(p) == 1).map(p, ${shown('p[0]')})`,
    },
    {
      // Entries as the parser would read them: the legacy Docker Hub host is docker.io.
      name: 'registryNames',
      expression: `variables.${registries}.map(r, r == '${LEGACY_DOCKER_HUB}' || r.startsWith('${LEGACY_DOCKER_HUB}/') ? ${hub} + r.substring(${LEGACY_DOCKER_HUB.length}) : r)`,
    },
    {
      // An entry allows a name equal to it or continuing it at a path-component boundary.
      name: 'badImages',
      expression: "variables.imagesParsed.filter(p, size(p) == 2 && !variables.registryNames.exists(r, p[1] == r || p[1].startsWith(r + '/'))).map(p, p[0])",
    },
  ];
}
