/**
 * One rule for every string of a request body, checked once where the body is parsed: no U+0000
 * and no unpaired UTF-16 surrogate, in values and object keys alike. PostgreSQL's text cannot hold
 * either (NUL is refused outright; a lone surrogate has no UTF-8 encoding), so such a string used
 * to travel through the schemas and fail at the database as a 500 — before any credential was
 * checked when it sat in `organizationId`. Refusing it here, with the path of the field, makes it
 * the client's 400 and keeps it away from every query. JSON.parse lets both through: `\u0000` and
 * `\ud800` are valid JSON escapes.
 */
import { AppError } from '@latchkey/domain';

/** Anything worth a closer look: NUL or any surrogate (paired ones are fine). One scan for most strings. */
const SUSPECT = /[\u0000\ud800-\udfff]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one (code units, no `u` flag). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored, or undefined when it can. */
function flaw(s: string): string | undefined {
  if (!SUSPECT.test(s)) return undefined;
  if (s.includes('\u0000')) return 'contains U+0000 (NUL), which no text field can hold';
  const lone = LONE_SURROGATE.exec(s);
  if (lone) return `contains an unpaired UTF-16 surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}), which is not a character`;
  return undefined;
}

/** A container still to be walked, with how it was reached (the path is built only on refusal). */
interface TFrame {
  value: object;
  parent: TFrame | undefined;
  key: string | number | undefined;
}

const MAX_PATH = 240;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `parameters.users[0].userName`; odd or refused keys quoted, e.g. `parameters["a\u0000"]`. */
function pathOf(frame: TFrame | undefined, key: string | number | undefined): string {
  const parts: Array<string | number> = [];
  if (key !== undefined) parts.push(key);
  for (let f = frame; f && f.key !== undefined; f = f.parent) parts.push(f.key);
  let out = '';
  for (const p of parts.reverse()) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (IDENTIFIER.test(p)) out += out === '' ? p : `.${p}`;
    else out += `[${JSON.stringify(p)}]`;
  }
  if (out === '') return '(root)';
  // A path is as long as the nesting is deep: keep both ends of a hostile one, not all of it.
  return out.length > MAX_PATH ? `${out.slice(0, MAX_PATH / 2)}…${out.slice(-MAX_PATH / 2)}` : out;
}

function refuse(path: string, why: string): AppError {
  return new AppError('BAD_REQUEST', `${path}: ${why}`, { field: path });
}

/**
 * Walks a parsed JSON value once (iteratively: nesting depth costs no stack) and refuses the first
 * string, value or key, that cannot be stored.
 * @throws AppError BAD_REQUEST naming the field's path (`details.field`)
 */
export function assertStorableStrings(root: unknown): void {
  if (typeof root === 'string') {
    const why = flaw(root);
    if (why) throw refuse('(root)', why);
    return;
  }
  if (typeof root !== 'object' || root === null) return;
  const stack: TFrame[] = [{ value: root, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (Array.isArray(frame.value)) {
      const items = frame.value as unknown[];
      for (let i = 0; i < items.length; i++) {
        const v = items[i];
        if (typeof v === 'string') {
          const why = flaw(v);
          if (why) throw refuse(pathOf(frame, i), why);
        } else if (typeof v === 'object' && v !== null) stack.push({ value: v, parent: frame, key: i });
      }
      continue;
    }
    const record = frame.value as Record<string, unknown>;
    for (const k in record) {
      const keyFlaw = flaw(k);
      if (keyFlaw) throw refuse(pathOf(frame, k), `the key ${keyFlaw}`);
      const v = record[k];
      if (typeof v === 'string') {
        const why = flaw(v);
        if (why) throw refuse(pathOf(frame, k), why);
      } else if (typeof v === 'object' && v !== null) stack.push({ value: v, parent: frame, key: k });
    }
  }
}
