/**
 * Container image references, as `create_tvc_deployment` and `validate_tvc_image` take them: the
 * grammar of the OCI distribution reference (`distribution/reference`), parsed without contacting
 * any registry. One parser, shared by both, so an image validate_tvc_image accepts is one
 * create_tvc_deployment accepts.
 *
 *   reference := name [":" tag] ["@" digest]
 *   name      := [domain "/"] component ("/" component)*
 *   domain    := host [":" port]            (a first part with ".", ":" or "localhost")
 *   component := [a-z0-9]+ ((_|__|[-]+|.) [a-z0-9]+)*
 *   tag       := [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}
 *   digest    := "sha256:" 64 lowercase hex digits
 *
 * No scheme (`https://`, `docker://`) is part of a reference; one is refused with a message saying
 * so rather than guessed away. Only sha256 digests are accepted: that is what registries serve
 * and what a manifest pins.
 */

export interface TImageReference {
  /** The registry host (and port) as written; absent means the client's default registry. */
  domain?: string;
  /** The repository path, e.g. `tkhq/app`. */
  repository: string;
  tag?: string;
  /** `sha256:<64 hex>` when the reference is pinned by digest. */
  digest?: string;
}

const MAX_REFERENCE_LENGTH = 512;
const COMPONENT = /^[a-z0-9]+(?:(?:_|__|-+|\.)[a-z0-9]+)*$/;
const DOMAIN = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?))*(?::[0-9]{1,5})?$|^\[[0-9a-fA-F:]+\](?::[0-9]{1,5})?$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * Parses an image reference.
 * @returns the parts, or `{error}` saying what is wrong and what would be accepted
 */
export function parseImageReference(text: string): TImageReference | { error: string } {
  if (text.length === 0) return { error: 'must not be empty' };
  if (text.length > MAX_REFERENCE_LENGTH) return { error: `must be at most ${MAX_REFERENCE_LENGTH} characters` };
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(text)) return { error: 'must be an image reference without a scheme, e.g. ghcr.io/org/app@sha256:<64 hex digits>' };
  if (/\s/.test(text)) return { error: 'must not contain whitespace' };

  let rest = text;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return { error: `digest ${JSON.stringify(digest)} must be sha256: followed by 64 lowercase hex digits` };
  }
  // A tag follows the last ':' after the last '/' (a ':' before it is the registry's port).
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return { error: `tag ${JSON.stringify(tag)} must be 1 to 128 of A-Z a-z 0-9 _ . - and not start with . or -` };
  }
  const parts = rest.split('/');
  let domain: string | undefined;
  if (parts.length > 1 && (parts[0]!.includes('.') || parts[0]!.includes(':') || parts[0] === 'localhost' || parts[0]!.startsWith('['))) {
    domain = parts.shift();
    if (!DOMAIN.test(domain!)) return { error: `registry ${JSON.stringify(domain)} is not a host name with an optional port` };
  }
  for (const c of parts) {
    if (!COMPONENT.test(c)) return { error: `repository path component ${JSON.stringify(c)} must be lowercase letters and digits, separated by . _ __ or -` };
  }
  return { ...(domain !== undefined ? { domain } : {}), repository: parts.join('/'), ...(tag !== undefined ? { tag } : {}), ...(digest !== undefined ? { digest } : {}) };
}
