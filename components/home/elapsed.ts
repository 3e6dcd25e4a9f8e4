/**
 * A span of time as a person says it on a dashboard: "under a minute", "12 min",
 * "3 h 5 min", "2 d 4 h". Precise enough to rank what waits; the exact time sits beside it.
 */
export function elapsedText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}
