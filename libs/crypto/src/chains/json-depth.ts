/**
 * A bound on the nesting of uploaded JSON (smart contract interfaces), checked on the text before
 * anything recursive reads it: JSON.parse copes with deep nesting, but zod's recursive schemas and
 * ethers' ParamType do not (50,000 nested `{"vec": …}` in a 400 kB IDL overflow the stack, which
 * would be a 500 rather than a refusal).
 */
import { SigningError } from '../signing/signing-error.js';

/** Far beyond any real ABI or IDL (a tuple nested 10 deep is about 22 levels of JSON). */
export const MAX_INTERFACE_JSON_DEPTH = 64;

/**
 * @throws {SigningError} MALFORMED_INPUT when arrays and objects nest deeper than `max`
 */
export function assertJsonDepth(text: string, what: string, max = MAX_INTERFACE_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) throw new SigningError('MALFORMED_INPUT', `${what} nests arrays and objects deeper than ${max} levels`);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}
