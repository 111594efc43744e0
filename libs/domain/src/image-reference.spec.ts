/** The image reference grammar: the forms registries use, pinned or not, and what is refused. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseImageReference } from './image-reference.js';

const D = `sha256:${'ab'.repeat(32)}`;

describe('parseImageReference', () => {
  it('reads the usual forms', () => {
    expect(parseImageReference(`ghcr.io/tkhq/app@${D}`)).toEqual({ domain: 'ghcr.io', repository: 'tkhq/app', digest: D });
    expect(parseImageReference(`localhost:5000/a/b/c:v1.2@${D}`)).toEqual({ domain: 'localhost:5000', repository: 'a/b/c', tag: 'v1.2', digest: D });
    expect(parseImageReference('alpine')).toEqual({ repository: 'alpine' });
    expect(parseImageReference('library/alpine:3.20')).toEqual({ repository: 'library/alpine', tag: '3.20' });
    expect(parseImageReference('registry.example.com:443/team/my_app__x-y.z:latest')).toEqual({ domain: 'registry.example.com:443', repository: 'team/my_app__x-y.z', tag: 'latest' });
    expect(parseImageReference(`[::1]:5000/app@${D}`)).toEqual({ domain: '[::1]:5000', repository: 'app', digest: D });
  });

  it('refuses schemes, bad digests, tags and components, saying what is wrong', () => {
    expect(parseImageReference(`https://ghcr.io/a@${D}`)).toEqual({ error: expect.stringContaining('without a scheme') });
    expect(parseImageReference('ghcr.io/a@sha256:abc')).toEqual({ error: expect.stringContaining('64 lowercase hex') });
    expect(parseImageReference(`ghcr.io/a@sha512:${'ab'.repeat(64)}`)).toEqual({ error: expect.stringContaining('sha256:') });
    expect(parseImageReference(`ghcr.io/a@${D.toUpperCase()}`)).toEqual({ error: expect.stringContaining('lowercase') });
    expect(parseImageReference('ghcr.io/a:-bad')).toEqual({ error: expect.stringContaining('tag') });
    expect(parseImageReference('ghcr.io/Upper/app')).toEqual({ error: expect.stringContaining('"Upper"') });
    expect(parseImageReference('ghcr.io//app')).toEqual({ error: expect.stringContaining('component ""') });
    expect(parseImageReference('bad_host.io:99999999/app')).toEqual({ error: expect.stringContaining('registry') });
    expect(parseImageReference('')).toEqual({ error: 'must not be empty' });
    expect(parseImageReference('a b')).toEqual({ error: 'must not contain whitespace' });
    expect(parseImageReference('a'.repeat(513))).toEqual({ error: expect.stringContaining('512') });
  });

  it('never throws, and what it accepts re-assembles to the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        const r = parseImageReference(s);
        if ('error' in r) return;
        const back = `${r.domain !== undefined ? `${r.domain}/` : ''}${r.repository}${r.tag !== undefined ? `:${r.tag}` : ''}${r.digest !== undefined ? `@${r.digest}` : ''}`;
        expect(back).toBe(s);
      }),
    );
  });
});
