/** How the composition root reads LATCHKEY_DERIVATION_WORKERS (the pool's own tests are in libs/crypto and the engine). */
import { describe, expect, it } from 'vitest';
import { createDerivation } from './platform.js';

// The worker's TypeScript source, through tsx (libs/crypto's test entry for it).
const workerUrl = new URL('../../crypto/src/derivation/derivation-worker.source.mjs', import.meta.url);

describe('createDerivation', () => {
  it('reads LATCHKEY_DERIVATION_WORKERS strictly', async () => {
    expect(() => createDerivation({ LATCHKEY_DERIVATION_WORKERS: 'two' }, workerUrl)).toThrow(/LATCHKEY_DERIVATION_WORKERS must be an integer from 0 to 64, got "two"/);
    expect(() => createDerivation({ LATCHKEY_DERIVATION_WORKERS: '-1' }, workerUrl)).toThrow(/LATCHKEY_DERIVATION_WORKERS/);
    expect(createDerivation({ LATCHKEY_DERIVATION_WORKERS: '0' }, workerUrl)).toBeUndefined();
    // Running from sources, with no bundled worker beside the code: inline.
    expect(createDerivation({})).toBeUndefined();
    const three = createDerivation({ LATCHKEY_DERIVATION_WORKERS: '3' }, workerUrl);
    expect(three?.size).toBe(3);
    await three?.close();
  });
});
