import { describe, expect, it } from 'vitest';
import { addressSpellings } from './wallet-repository.js';

describe('addressSpellings', () => {
  // EIP-55's own test vector.
  const checksummed = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

  it('matches an Ethereum-format address in any case by its checksummed and lowercase forms', () => {
    for (const given of [checksummed, checksummed.toLowerCase(), `0x${checksummed.slice(2).toUpperCase()}`, `0X${checksummed.slice(2)}`]) {
      const [asGiven, eip55, lower] = addressSpellings(given);
      expect(asGiven).toBe(given);
      expect(eip55).toBe(checksummed);
      expect(lower).toBe(checksummed.toLowerCase());
    }
  });

  it('matches every other format exactly (base58 is case-sensitive), ids included', () => {
    for (const other of ['7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV', '7ecdhsygxxyscszyep35khn8vvw3svaulktzxwcfltv', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', 'pk-0192']) {
      expect(addressSpellings(other)).toEqual([other, other, other]);
    }
  });
});
