/**
 * The restrictions policy's image-reference steps (src/tenancy/image-reference.ts) in TypeScript, with the
 * same regular expressions: a fast check of the grammar and the steps against the reference table in the
 * unit suite. Not the oracle: what the policy does is checked against kubelet's parser in the
 * integration suite, through kube-apiserver itself.
 */
import { DIGEST, DOCKER_HUB, DOMAIN, IDENTIFIER, LEGACY_DOCKER_HUB, MAX_IMAGE_LENGTH, MAX_PATH_LENGTH, REFERENCE } from '../../src/tenancy/restrictions/image-reference';

/** CEL's `matches`: RE2 without flags, where `^` and `$` hold at the ends of the text as in JavaScript. */
const matches = (s: string, pattern: string) => new RegExp(pattern).test(s);
/** CEL's `lowerAscii()`. */
const lowerAscii = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The repository name the policy reads in `image`, or null where it finds the reference invalid. */
export function policyName(image: string): string | null {
  // imageParts: CEL's size() counts code points.
  if ([...image].length > MAX_IMAGE_LENGTH || matches(image, IDENTIFIER)) return null;
  const slash = image.indexOf('/');
  const [first, rest] = slash >= 0 ? [image.slice(0, slash), image.slice(slash + 1)] : ['', image];
  // imageSplits
  const hostFirst = first !== '' && (first === 'localhost' || first.includes('.') || first.includes(':') || lowerAscii(first) !== first);
  const [domain, remainder] = hostFirst ? [first === LEGACY_DOCKER_HUB ? DOCKER_HUB : first, rest] : [DOCKER_HUB, image];
  // imageFulls
  const full = `${domain}/${domain === DOCKER_HUB && !remainder.includes('/') ? `library/${remainder}` : remainder}`;
  if (!matches(full, REFERENCE)) return null;
  // imageRefs, imageNames
  const at = full.indexOf('@');
  const [withTag, digest] = at >= 0 ? [full.slice(0, at), full.slice(at + 1)] : [full, ''];
  if (digest !== '' && !matches(digest, DIGEST)) return null;
  const name = withTag.lastIndexOf(':') > withTag.lastIndexOf('/') ? withTag.slice(0, withTag.lastIndexOf(':')) : withTag;
  // imagesParsed
  const lead = name.slice(0, name.indexOf('/'));
  const path = matches(lead, DOMAIN) ? name.slice(name.indexOf('/') + 1) : name;
  return path.length <= MAX_PATH_LENGTH ? name : null;
}
