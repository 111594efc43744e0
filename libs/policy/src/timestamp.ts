/**
 * The language's `timestamp` type: an instant as nanoseconds since the Unix epoch (a bigint, so
 * RFC 3339 fractions down to nanoseconds compare exactly). `Timestamp('…')` accepts RFC 3339 with a
 * zero UTC offset only (`Z`, `z`, `+00:00`, `-00:00`), as Turnkey's time-based policies document.
 */

export class PolicyTimestamp {
  constructor(readonly epochNanos: bigint) {}

  static fromDate(date: Date): PolicyTimestamp | undefined {
    const ms = date.getTime();
    return Number.isFinite(ms) ? new PolicyTimestamp(BigInt(ms) * 1_000_000n) : undefined;
  }
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days from 1970-01-01 to the civil date (proleptic Gregorian; H. Hinnant's `days_from_civil`). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/**
 * Parses an RFC 3339 timestamp with a zero offset; returns why not as a string.
 * Leap seconds (`:60`) are refused: the evaluator has no clock that shows them.
 */
export function parseTimestamp(text: string): PolicyTimestamp | string {
  const m = RFC3339.exec(text);
  if (!m) return `'${text}' is not an RFC 3339 timestamp (e.g. 2024-01-01T00:00:00Z)`;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offset = m[8]!;
  if (!/^[Zz]$|^[+-]00:00$/.test(offset)) return `timestamp '${text}' must have a zero UTC offset (Z, +00:00 or -00:00)`;
  if (month < 1 || month > 12) return `timestamp '${text}' has month ${month}`;
  const monthDays = month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
  if (day < 1 || day > monthDays) return `timestamp '${text}' has day ${day}`;
  if (hour > 23 || minute > 59 || second > 59) return `timestamp '${text}' has a time out of range`;
  const nanos = BigInt((m[7] ?? '').padEnd(9, '0') || '0');
  const seconds = BigInt(daysFromCivil(year, month, day)) * 86_400n + BigInt(hour * 3600 + minute * 60 + second);
  return new PolicyTimestamp(seconds * 1_000_000_000n + nanos);
}

/**
 * The `timestamp` value of a `Date` (for `time.now`; a `Date` in the context is read the same way).
 * @throws {RangeError} for an invalid date
 */
export function timestampOf(date: Date): PolicyTimestamp {
  const ts = PolicyTimestamp.fromDate(date);
  if (!ts) throw new RangeError('time.now must be a valid date');
  return ts;
}
