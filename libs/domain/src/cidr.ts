/**
 * IP addresses and CIDR blocks (IPv4 and IPv6) as numbers: one parser for the IP allowlists'
 * rules (checked when they are set) and for the client addresses they are matched against (at
 * every request), so the two cannot read the same text differently. Pure: no name resolution.
 */

export interface TIpAddress {
  family: 4 | 6;
  value: bigint;
}

export interface TCidr extends TIpAddress {
  prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;

function parseIpv4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  for (const p of parts) {
    // No leading zeros: "010" is octal to some parsers and decimal to others.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p) || Number(p) > 255) return undefined;
    v = (v << 8n) | BigInt(p);
  }
  return v;
}

function parseIpv6(s: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(s) || s.length > 45) return undefined;
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    const items = h.split(':');
    for (let i = 0; i < items.length; i++) {
      const g = items[i]!;
      if (i === items.length - 1 && g.includes('.')) {
        const v4 = parseIpv4(g);
        if (v4 === undefined) return undefined;
        out.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
        out.push(parseInt(g, 16));
      }
    }
    return out;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return undefined;
  // An embedded IPv4 is allowed only at the very end.
  if (halves.length === 2 && halves[0]!.includes('.')) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.reduce((v, g) => (v << 16n) | BigInt(g), 0n);
}

/**
 * An IPv4 or IPv6 address; an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, as a dual-stack
 * socket reports an IPv4 client) is read as the IPv4 address it maps. A zone (`%eth0`) is ignored.
 * @returns undefined when the text is not an address
 */
export function parseIpAddress(text: string): TIpAddress | undefined {
  const s = text.trim();
  if (s.includes(':')) {
    const zone = s.indexOf('%');
    const v = parseIpv6(zone === -1 ? s : s.slice(0, zone));
    if (v === undefined) return undefined;
    if (v >> 32n === 0xffffn) return { family: 4, value: v & 0xffffffffn };
    return { family: 6, value: v };
  }
  const v = parseIpv4(s);
  return v === undefined ? undefined : { family: 4, value: v };
}

/**
 * A CIDR block (`192.168.1.0/24`, `2001:db8::/32`) or a bare address (a block of one). Bits past
 * the prefix must be zero — `10.0.0.1/8` is refused rather than silently widened or narrowed, since
 * either reading could be what the writer meant.
 * @returns the block, or a reason the text is not one
 */
export function parseCidr(text: string): TCidr | { error: string } {
  const [addr, prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return { error: 'must be one address and one prefix length, e.g. 192.168.1.0/24' };
  const ip = addr === undefined || addr.includes('%') ? undefined : parseIpAddress(addr);
  if (!ip) return { error: 'must be an IPv4 or IPv6 address with an optional prefix length, e.g. 192.168.1.0/24 or 2001:db8::/32' };
  // An IPv4-mapped address names an IPv4 block: its prefix counts from the mapped part.
  const bits = BITS[ip.family];
  const mapped = ip.family === 4 && addr!.includes(':');
  let prefix = bits;
  if (prefixText !== undefined) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(prefixText)) return { error: `prefix length must be a number from 0 to ${mapped ? 128 : bits}` };
    prefix = Number(prefixText) - (mapped ? 96 : 0);
    if (prefix < 0 || prefix > bits) return { error: `prefix length must be from ${mapped ? 96 : 0} to ${mapped ? 128 : bits}` };
  }
  const host = (1n << BigInt(bits - prefix)) - 1n;
  if ((ip.value & host) !== 0n) return { error: `has bits set past the /${prefixText ?? bits} prefix; write the network address` };
  return { ...ip, prefix };
}

/** Whether an address lies in a block (never across families). */
export function cidrContains(block: TCidr, ip: TIpAddress): boolean {
  if (block.family !== ip.family) return false;
  const shift = BigInt(BITS[block.family] - block.prefix);
  return ip.value >> shift === block.value >> shift;
}
