/**
 * Delta debugging (Zeller's ddmin, simplified): the shortest list of actions found that still fails. Drops chunks of
 * halving size, then single actions, keeping every removal after which `stillFails` holds. Each test of a candidate
 * is a replay on a fresh database, so the time is bounded: past `deadline` (ms since the epoch) the best list so far
 * is answered.
 */
export interface ShrinkResult<T> {
  actions: T[];
  replays: number;
  /** False when the deadline cut the search short (a shorter list may exist). */
  complete: boolean;
}

export async function shrink<T>(
  actions: readonly T[],
  stillFails: (candidate: T[]) => Promise<boolean>,
  deadline = Infinity,
): Promise<ShrinkResult<T>> {
  let current = [...actions];
  let replays = 0;
  const tryWithout = async (from: number, to: number) => {
    if (Date.now() > deadline) return false;
    const candidate = [...current.slice(0, from), ...current.slice(to)];
    replays += 1;
    if (!(await stillFails(candidate))) return false;
    current = candidate;
    return true;
  };
  for (let size = Math.floor(current.length / 2); size >= 1; size = Math.floor(size / 2)) {
    // After a removal the same position holds new actions: try it again before moving on.
    for (let from = 0; from + size <= current.length;) {
      if (Date.now() > deadline) return { actions: current, replays, complete: false };
      if (!(await tryWithout(from, from + size))) from += size;
    }
  }
  return { actions: current, replays, complete: Date.now() <= deadline };
}
