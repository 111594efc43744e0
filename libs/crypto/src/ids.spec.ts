/** Tests for UUIDv7 generation: format and strict monotonicity. */
import { describe, expect, it, vi } from 'vitest';
import { idTimestamp, newId } from './ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Unix milliseconds encoded in a UUIDv7. */
const timestampOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('newId', () => {
  it('returns RFC 9562 version 7, variant 10 ids carrying the current time', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    expect(id).toMatch(UUID_V7);
    expect(timestampOf(id)).toBeGreaterThanOrEqual(before);
    expect(timestampOf(id)).toBeLessThanOrEqual(after + 1);
  });

  it('is strictly increasing as strings over 10k ids', () => {
    const ids = Array.from({ length: 10_000 }, () => newId());
    for (let i = 1; i < ids.length; i += 1) {
      expect(ids[i]! > ids[i - 1]!).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(UUID_V7);
  });

  it('stays increasing within a frozen millisecond (counter overflow bumps the timestamp)', () => {
    vi.useFakeTimers({ now: Date.now() + 10_000, toFake: ['Date'] });
    try {
      const frozen = Date.now();
      const ids = Array.from({ length: 10_000 }, () => newId());
      for (let i = 1; i < ids.length; i += 1) expect(ids[i]! > ids[i - 1]!).toBe(true);
      expect(timestampOf(ids[0]!)).toBe(frozen);
      // At least 2048 ids per millisecond before spilling, at most 4096.
      const last = timestampOf(ids.at(-1)!);
      expect(last).toBeGreaterThan(frozen);
      expect(last - frozen).toBeLessThanOrEqual(Math.ceil(10_000 / 2048));
    } finally {
      vi.useRealTimers();
    }
  });

  it('stays increasing when the clock goes backwards', () => {
    const first = newId();
    vi.useFakeTimers({ now: Date.now() - 60_000, toFake: ['Date'] });
    try {
      expect(newId() > first).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('idTimestamp', () => {
  it('reads the 48-bit millisecond timestamp', () => {
    expect(idTimestamp('018f3b2a-1c00-7abc-8def-0123456789ab').getTime()).toBe(0x018f3b2a1c00);
  });

  it('orders like the ids it reads', () => {
    const ids = Array.from({ length: 50 }, () => newId());
    const times = ids.map((id) => idTimestamp(id).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('refuses anything but a UUIDv7', () => {
    expect(() => idTimestamp('01234567-89ab-4def-8123-456789abcdef')).toThrow(/UUIDv7/);
  });
});
