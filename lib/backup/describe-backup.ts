import type { BackupSummary } from "./take-backup";

/** What a backup holds and, as loudly, what it does not: printed by db:backup and logged by scheduled backups. */
export function describeBackup(summary: BackupSummary): string {
  const mb = (summary.bytes / 1024 / 1024).toFixed(1);
  return [
    `[backup] wrote ${summary.file} (${mb} MB, ${summary.tables} tables, ${summary.rows} rows, one snapshot, ${summary.ms} ms)`,
    `[backup] it holds secrets (${summary.files.join(", ") || "no DATA_DIR file"}): keep it as you keep passwords`,
    ...summary.notIncluded.map((line) => `[backup] NOT INCLUDED: ${line}`),
  ].join("\n");
}
