/** A recognition as the leaderboard counts it. */
export interface CountedRecognition {
  employeeId: string;
  employeeName: string;
  createdAt: Date;
}

export interface LeaderboardEntry {
  rank: number;
  employeeId: string;
  employeeName: string;
  count: number;
}

/**
 * The people most recognised: recognitions counted per person, most first; a tie goes to whoever was
 * recognised last (then by name). People with the same count share a rank. The name is the latest one
 * a recognition carried.
 */
export function rankLeaderboard(rows: readonly CountedRecognition[], size: number): LeaderboardEntry[] {
  const by = new Map<string, { employeeId: string; employeeName: string; count: number; last: number }>();
  for (const r of rows) {
    const at = new Date(r.createdAt).getTime();
    const e = by.get(r.employeeId);
    if (!e) by.set(r.employeeId, { employeeId: r.employeeId, employeeName: r.employeeName, count: 1, last: at });
    else {
      e.count += 1;
      if (at >= e.last) {
        e.last = at;
        e.employeeName = r.employeeName;
      }
    }
  }
  const sorted = [...by.values()].sort((a, b) => b.count - a.count || b.last - a.last || a.employeeName.localeCompare(b.employeeName));
  let rank = 0;
  return sorted.slice(0, size).map((e, i) => {
    if (i === 0 || sorted[i - 1].count !== e.count) rank = i + 1;
    return { rank, employeeId: e.employeeId, employeeName: e.employeeName, count: e.count };
  });
}
