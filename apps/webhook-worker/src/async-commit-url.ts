/**
 * The worker's database sessions commit asynchronously (`synchronous_commit=off`): a claim or an
 * attempt's record then costs no wait for the disk, which doubled single-endpoint throughput here
 * (193 → 447 deliveries/s). What a database crash can lose is the last fraction of a second of
 * those records — and a lost record only means the message is sent again, with the same event id,
 * which at-least-once delivery allows. The two writes that must not be lost opt back in with
 * `SET LOCAL synchronous_commit = on`: the fan-out (it makes the event ids) and signing-key creation.
 */

/**
 * `url` with `-c synchronous_commit=off` added to its `options` startup parameter (kept if present).
 * @throws TypeError when `url` is not a URL.
 */
export function asyncCommitUrl(url: string): string {
  const u = new URL(url);
  const options = u.searchParams.get('options');
  u.searchParams.set('options', options ? `${options} -c synchronous_commit=off` : '-c synchronous_commit=off');
  return u.toString();
}
