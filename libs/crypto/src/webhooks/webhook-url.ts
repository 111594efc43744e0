/**
 * Where a webhook may be sent. A delivery is a POST the server makes on a customer's behalf, so an
 * unchecked URL is a server-side request forgery: into the host's loopback, the private network,
 * or the cloud metadata service that hands out credentials. The rules (§B1): `https://` to a public
 * address, no userinfo, no fragment. They are checked when an endpoint is created and again at every
 * delivery, after resolving the name: the delivery then connects to the address that was checked
 * (`pinnedLookup`), so a name re-pointed between the check and the connection (DNS rebinding) gains
 * nothing. `LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS=true` (development, tests) allows `http://` and
 * private or loopback destinations; cloud metadata and multicast stay refused even then — no
 * development set-up needs them.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export const ALLOW_INSECURE_URLS_VARIABLE = 'LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS';

export type TWebhookUrlErrorReason = 'MALFORMED' | 'SCHEME' | 'USERINFO' | 'FRAGMENT' | 'DESTINATION' | 'UNRESOLVABLE';

/** A refused webhook URL; `message` says what is accepted (and, where it helps, the switch). */
export class WebhookUrlError extends Error {
  override readonly name = 'WebhookUrlError';
  constructor(
    readonly reason: TWebhookUrlErrorReason,
    message: string,
  ) {
    super(message);
  }
}

/** Why an address is not public; `null` for a public address. */
export type TAddressClass = 'loopback' | 'private' | 'link-local' | 'cgnat' | 'unspecified' | 'reserved' | 'multicast' | 'cloud-metadata' | null;

/** Classes the allow switch opens (a developer's own machine and network); the others never open. */
const OPENED_BY_SWITCH: ReadonlySet<TAddressClass> = new Set(['loopback', 'private', 'link-local', 'cgnat', 'unspecified', 'reserved']);

function blockList(entries: readonly (readonly [string, number, 'ipv4' | 'ipv6'])[]): BlockList {
  const list = new BlockList();
  for (const [net, prefix, type] of entries) list.addSubnet(net, prefix, type);
  return list;
}

// Checked in this order: the first match names the class (metadata addresses sit inside link-local and CGNAT).
const CLASSES: readonly (readonly [Exclude<TAddressClass, null>, BlockList])[] = [
  [
    'cloud-metadata',
    blockList([
      ['169.254.169.254', 32, 'ipv4'], // AWS, GCP, Azure, OpenStack, DigitalOcean…
      ['169.254.170.2', 32, 'ipv4'], // AWS ECS task credentials
      ['100.100.100.200', 32, 'ipv4'], // Alibaba Cloud
      ['fd00:ec2::254', 128, 'ipv6'], // AWS over IPv6
    ]),
  ],
  ['unspecified', blockList([['0.0.0.0', 8, 'ipv4'], ['::', 128, 'ipv6']])],
  ['loopback', blockList([['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']])],
  ['private', blockList([['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['fc00::', 7, 'ipv6'], ['fec0::', 10, 'ipv6']])],
  ['link-local', blockList([['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']])],
  ['cgnat', blockList([['100.64.0.0', 10, 'ipv4']])],
  ['multicast', blockList([['224.0.0.0', 4, 'ipv4'], ['ff00::', 8, 'ipv6']])],
  [
    'reserved',
    blockList([
      ['192.0.0.0', 24, 'ipv4'],
      ['192.0.2.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'], // includes 255.255.255.255
      ['100::', 64, 'ipv6'],
      ['2001:db8::', 32, 'ipv6'],
    ]),
  ],
];

/** The IPv4 address an IPv6 address carries (IPv4-mapped, IPv4-compatible, NAT64), else undefined. */
function embeddedIpv4(v6: string): string | undefined {
  const list = new BlockList();
  list.addSubnet('::ffff:0:0', 96, 'ipv6');
  list.addSubnet('64:ff9b::', 96, 'ipv6');
  list.addSubnet('::', 96, 'ipv6');
  if (!list.check(v6, 'ipv6') || v6 === '::' || v6 === '::1') return undefined;
  // The last 32 bits, whichever way they were written (::ffff:10.0.0.1 or ::ffff:a00:1).
  const groups = expandIpv6(v6);
  const hi = groups[6]!;
  const lo = groups[7]!;
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

function expandIpv6(v6: string): number[] {
  let text = v6;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const h = parse(head);
  const t = tail === undefined ? [] : parse(tail);
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/**
 * Classifies an IP address literal: `null` when it is a public unicast address.
 * @throws {TypeError} if `address` is not an IP literal.
 */
export function classifyAddress(address: string): TAddressClass {
  const family = isIP(address);
  if (family === 0) throw new TypeError(`address must be an IPv4 or IPv6 literal, got ${JSON.stringify(address)}`);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (type === 'ipv6') {
    const v4 = embeddedIpv4(address);
    if (v4 !== undefined) return classifyAddress(v4);
  }
  for (const [cls, list] of CLASSES) if (list.check(address, type)) return cls;
  return null;
}

/**
 * Reads LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS from an environment map: the one reader for the
 * worker (at delivery) and the endpoint activities (at creation), so both apply the same rule.
 * @throws Error naming the variable unless it is unset, empty, true, false, 1 or 0.
 */
export function readAllowInsecureWebhookUrls(env: Record<string, string | undefined>): boolean {
  const raw = env[ALLOW_INSECURE_URLS_VARIABLE]?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new Error(`${ALLOW_INSECURE_URLS_VARIABLE} must be true or false, got ${JSON.stringify(env[ALLOW_INSECURE_URLS_VARIABLE])}`);
}

export interface TWebhookUrlOptions {
  /** LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: allow http:// and private or loopback destinations. */
  allowInsecure: boolean;
}

/**
 * Checks a URL's form (no network): scheme, userinfo, fragment, and — when the host is an IP
 * literal — its address. For endpoint creation, follow with `resolveWebhookDestination`.
 * @throws {WebhookUrlError} `MALFORMED`, `SCHEME`, `USERINFO`, `FRAGMENT` or `DESTINATION`.
 */
export function parseWebhookUrl(raw: string, opts: TWebhookUrlOptions): URL {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048) throw new WebhookUrlError('MALFORMED', 'url must be an absolute https:// URL of at most 2048 characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError('MALFORMED', `url ${JSON.stringify(raw)} is not an absolute URL; expected https://<public host>/<path>`);
  }
  if (url.protocol !== 'https:' && !(opts.allowInsecure && url.protocol === 'http:')) {
    throw new WebhookUrlError('SCHEME', `url scheme ${url.protocol} is not accepted; webhooks go to https:// (http:// only with ${ALLOW_INSECURE_URLS_VARIABLE}=true)`);
  }
  if (url.username !== '' || url.password !== '') throw new WebhookUrlError('USERINFO', 'url must not carry a user name or password (put credentials in the path or verify our signature instead)');
  // `new URL('https://h/#')` has an empty hash, yet the text had a fragment: look at the text.
  if (raw.includes('#')) throw new WebhookUrlError('FRAGMENT', 'url must not have a #fragment (it is never sent to the server)');
  if (url.hostname === '') throw new WebhookUrlError('MALFORMED', 'url has no host');
  const literal = hostLiteral(url);
  if (literal !== undefined) assertDestination(literal, url.hostname, opts);
  return url;
}

/** The host as an IP literal (brackets of IPv6 removed), or undefined for a name. */
function hostLiteral(url: URL): string | undefined {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : undefined;
}

function assertDestination(address: string, host: string, opts: TWebhookUrlOptions): void {
  const cls = classifyAddress(address);
  if (cls === null || (opts.allowInsecure && OPENED_BY_SWITCH.has(cls))) return;
  const how = OPENED_BY_SWITCH.has(cls) ? ` (allowed only with ${ALLOW_INSECURE_URLS_VARIABLE}=true, for development)` : ' (never allowed)';
  throw new WebhookUrlError('DESTINATION', `url host ${host} is a ${cls} address ${address}; webhooks go to public addresses${how}`);
}

export interface TWebhookDestination {
  url: URL;
  /** The checked address the delivery must connect to. */
  address: string;
  family: 4 | 6;
}

export type TResolver = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

const systemResolver: TResolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Checks a URL and resolves its host. Every address the name resolves to must be acceptable — not
 * just the first: a name that also points inward is refused. Returns the first address, to connect
 * to through `pinnedLookup`.
 * @throws {WebhookUrlError} as `parseWebhookUrl`, `UNRESOLVABLE` when the name does not resolve, or
 *   `DESTINATION` when any of its addresses is refused.
 */
export async function resolveWebhookDestination(raw: string, opts: TWebhookUrlOptions & { resolve?: TResolver }): Promise<TWebhookDestination> {
  const url = parseWebhookUrl(raw, opts);
  const literal = hostLiteral(url);
  if (literal !== undefined) return { url, address: literal, family: isIP(literal) as 4 | 6 };
  let addresses: readonly { address: string; family: number }[];
  try {
    addresses = await (opts.resolve ?? systemResolver)(url.hostname);
  } catch (e) {
    throw new WebhookUrlError('UNRESOLVABLE', `url host ${url.hostname} does not resolve (${(e as { code?: string }).code ?? 'lookup failed'})`);
  }
  if (addresses.length === 0) throw new WebhookUrlError('UNRESOLVABLE', `url host ${url.hostname} has no address`);
  for (const a of addresses) assertDestination(a.address, url.hostname, opts);
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * A `lookup` for `http(s).request` that answers the already checked address whatever name is
 * asked: the connection goes where the check looked, while the Host header and the TLS server
 * name stay the URL's host.
 */
export function pinnedLookup(d: { address: string; family: 4 | 6 }): LookupFunction {
  return (_hostname, options, callback) => {
    // Node asks for every address (`all: true`) when it tries families in turn (autoSelectFamily).
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: d.address, family: d.family }]);
    else callback(null, d.address, d.family);
  };
}
