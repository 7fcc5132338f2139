// Where a time falls in an increasing list of times: the player's frame (main.js) and the plan
// running on an execution page (execution.js).

// The index of the last entry of the increasing `times` not after t (0 when t is before all),
// within the times' round-off (1e-9 relative).
export function indexAt(times, t) {
  let low = 0;
  let high = times.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (times[middle] <= t + 1e-9 * Math.max(1, Math.abs(t))) low = middle; else high = middle - 1;
  }
  return low;
}
