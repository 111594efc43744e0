/** The one address and CIDR parser of the IP allowlists: vectors for both families, and the refusals. */
import { describe, expect, it } from 'vitest';
import { cidrContains, parseCidr, parseIpAddress, type TCidr } from './cidr.js';

const block = (s: string): TCidr => {
  const b = parseCidr(s);
  if ('error' in b) throw new Error(`${s}: ${b.error}`);
  return b;
};
const inside = (cidr: string, ip: string) => cidrContains(block(cidr), parseIpAddress(ip)!);

describe('parseIpAddress', () => {
  it('reads IPv4, IPv6 (compressed, full, with an embedded IPv4) and IPv4-mapped IPv6 as IPv4', () => {
    expect(parseIpAddress('192.0.2.1')).toEqual({ family: 4, value: 0xc0000201n });
    expect(parseIpAddress('2001:db8::1')).toEqual({ family: 6, value: 0x20010db8000000000000000000000001n });
    expect(parseIpAddress('2001:0db8:0000:0000:0000:0000:0000:0001')).toEqual(parseIpAddress('2001:db8::1'));
    expect(parseIpAddress('::')).toEqual({ family: 6, value: 0n });
    expect(parseIpAddress('::ffff:192.0.2.1')).toEqual({ family: 4, value: 0xc0000201n });
    expect(parseIpAddress('fe80::1%eth0')).toEqual({ family: 6, value: 0xfe800000000000000000000000000001n });
  });

  it('refuses what is not one address', () => {
    for (const s of ['', '1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1::2::3', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7', 'g::1', 'example.com', '1.2.3.4::']) {
      expect(parseIpAddress(s), s).toBeUndefined();
    }
  });
});

describe('parseCidr and cidrContains', () => {
  it('matches by prefix in each family, never across', () => {
    expect(inside('192.168.1.0/24', '192.168.1.200')).toBe(true);
    expect(inside('192.168.1.0/24', '192.168.2.1')).toBe(false);
    expect(inside('0.0.0.0/0', '203.0.113.9')).toBe(true);
    expect(inside('203.0.113.9', '203.0.113.9')).toBe(true);
    expect(inside('203.0.113.9', '203.0.113.10')).toBe(false);
    expect(inside('2001:db8::/32', '2001:db8:ffff::1')).toBe(true);
    expect(inside('2001:db8::/32', '2001:db9::1')).toBe(false);
    expect(inside('::/0', '192.0.2.1')).toBe(false);
    // A dual-stack socket's IPv4-mapped peer matches IPv4 rules.
    expect(inside('10.0.0.0/8', '::ffff:10.1.2.3')).toBe(true);
    expect(inside('::ffff:10.0.0.0/104', '10.1.2.3')).toBe(true);
  });

  it('refuses host bits past the prefix, bad prefixes and non-addresses, saying what to write', () => {
    expect(parseCidr('10.0.0.1/8')).toEqual({ error: expect.stringContaining('network address') });
    expect(parseCidr('10.0.0.0/33')).toEqual({ error: expect.stringContaining('0 to 32') });
    expect(parseCidr('2001:db8::/129')).toEqual({ error: expect.stringContaining('0 to 128') });
    expect(parseCidr('10.0.0.0/08')).toEqual({ error: expect.stringContaining('prefix length') });
    expect(parseCidr('10.0.0.0/8/8')).toEqual({ error: expect.stringContaining('one prefix length') });
    expect(parseCidr('office')).toEqual({ error: expect.stringContaining('IPv4 or IPv6') });
  });
});
