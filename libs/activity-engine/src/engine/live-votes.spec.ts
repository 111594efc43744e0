/** `liveVotes`: a waiting activity's votes count for the approval window from the first, then all lapse together. */
import { describe, expect, it } from 'vitest';
import { liveVotes } from './consensus.js';

const at = (ms: number) => ({ createdAt: new Date(ms) });

describe('liveVotes', () => {
  it('keeps every vote until the window from the first has run out, then none', () => {
    const votes = [at(1_000), at(5_000), at(9_000)];
    expect(liveVotes(votes, new Date(1_000), 10_000)).toEqual(votes);
    expect(liveVotes(votes, new Date(10_999), 10_000)).toEqual(votes);
    // The window is counted from the first vote, not the latest: the late approval lapses with it.
    expect(liveVotes(votes, new Date(11_000), 10_000)).toEqual([]);
  });

  it('takes the earliest vote whatever the order given', () => {
    expect(liveVotes([at(9_000), at(2_000)], new Date(12_000), 10_000)).toEqual([]);
    expect(liveVotes([at(9_000), at(3_000)], new Date(12_000), 10_000)).toHaveLength(2);
  });

  it('has nothing to lapse without votes', () => {
    expect(liveVotes([], new Date(0), 1)).toEqual([]);
  });
});
