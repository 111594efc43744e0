/**
 * The tokens of the policy language: identifiers, decimal integers, single-quoted strings (no
 * escapes, as Turnkey's), `true`/`false`/`in`, and the operators and punctuation of the grammar.
 */
import { PolicyParseError } from './errors.js';

export type TTokenType = 'ident' | 'int' | 'string' | 'true' | 'false' | 'in' | 'punct' | 'eof';

export interface TToken {
  type: TTokenType;
  /** The token's text: an identifier, the digits, the string's content (without quotes), or the operator. */
  text: string;
  /** 0-based offset of the token's first character. */
  position: number;
}

// Longest first, so `..` wins over `.`, `<=` over `<`.
const PUNCTUATION = ['&&', '||', '==', '!=', '<=', '>=', '..', '<', '>', '!', '(', ')', '[', ']', ',', '.', '-'] as const;

const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_]/;
const DIGIT = /[0-9]/;
// The same set `isEmptyExpression` treats as blank.
const WHITESPACE = /\s/;

/** How a token is shown in an error message. */
export function describeToken(token: TToken): string {
  switch (token.type) {
    case 'eof':
      return 'end of input';
    case 'string':
      return `string '${token.text.length > 20 ? `${token.text.slice(0, 20)}…` : token.text}'`;
    case 'int':
      return `integer ${token.text.length > 20 ? `${token.text.slice(0, 20)}…` : token.text}`;
    default:
      return `token '${token.text}'`;
  }
}

/**
 * Splits `source` into tokens, ending with an `eof` token.
 * @throws {PolicyParseError} for a character outside the language or an unterminated string.
 */
export function tokenize(source: string): TToken[] {
  const tokens: TToken[] = [];
  let at = 0;
  while (at < source.length) {
    const ch = source[at]!;
    if (WHITESPACE.test(ch)) {
      at += 1;
      continue;
    }
    const start = at;
    if (IDENT_START.test(ch)) {
      while (at < source.length && IDENT_PART.test(source[at]!)) at += 1;
      const text = source.slice(start, at);
      const type: TTokenType = text === 'true' || text === 'false' || text === 'in' ? text : 'ident';
      tokens.push({ type, text, position: start });
      continue;
    }
    if (DIGIT.test(ch)) {
      while (at < source.length && DIGIT.test(source[at]!)) at += 1;
      // `12abc` is a typo, not the integer 12 followed by an identifier.
      if (at < source.length && IDENT_START.test(source[at]!)) {
        throw new PolicyParseError(at, `unexpected character '${source[at]}' after integer at position ${at}`);
      }
      tokens.push({ type: 'int', text: source.slice(start, at), position: start });
      continue;
    }
    if (ch === "'") {
      const end = source.indexOf("'", at + 1);
      if (end === -1) throw new PolicyParseError(start, `unterminated string starting at position ${start}`);
      tokens.push({ type: 'string', text: source.slice(at + 1, end), position: start });
      at = end + 1;
      continue;
    }
    const punct = PUNCTUATION.find((p) => source.startsWith(p, at));
    if (punct) {
      tokens.push({ type: 'punct', text: punct, position: start });
      at += punct.length;
      continue;
    }
    const shown = ch === '"' ? `'"' (strings use single quotes)` : JSON.stringify(ch);
    throw new PolicyParseError(start, `unexpected character ${shown} at position ${start}`);
  }
  tokens.push({ type: 'eof', text: '', position: source.length });
  return tokens;
}
