/** Held emails, one digest per person and period end (pure): the ids each digest carries, oldest period first. */
export function groupDigests<T extends { id: string; staffId: string; dueAt: Date }>(
  held: readonly T[],
): { staffId: string; periodEnd: Date; ids: string[] }[] {
  const groups = new Map<string, { staffId: string; periodEnd: Date; ids: string[] }>();
  for (const row of held) {
    const key = `${row.staffId}|${row.dueAt.toISOString()}`;
    const group = groups.get(key) ?? { staffId: row.staffId, periodEnd: row.dueAt, ids: [] };
    group.ids.push(row.id);
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => a.periodEnd.getTime() - b.periodEnd.getTime());
}

/** A digest's delivery key: the person, the period, and the first email it carries (so a late straggler of that period gets its own). */
export function digestKey(group: { staffId: string; periodEnd: Date; ids: string[] }): string {
  return `digest:${group.staffId}:${group.periodEnd.toISOString()}:${[...group.ids].sort()[0]}`;
}
