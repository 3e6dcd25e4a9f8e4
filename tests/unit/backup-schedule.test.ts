import { describe, expect, it } from "vitest";
import { backupName, backupsToPrune, takenAt } from "@/lib/backup/schedule-backups";

describe("scheduled backups", () => {
  it("names a backup by its time, and reads the time back", () => {
    const at = new Date("2026-11-28T16:10:05.123Z");
    expect(backupName(at)).toBe("backup-2026-11-28T16-10-05Z.json.gz");
    expect(takenAt(backupName(at))).toBe(Date.parse("2026-11-28T16:10:05Z"));
    expect(takenAt("notes.txt")).toBeNull();
  });

  it("keeps the newest BACKUP_KEEP and never touches a file it did not write", () => {
    const names = [
      "backup-2026-11-26T03-00-00Z.json.gz",
      "my-own-copy.json.gz",
      "backup-2026-11-28T03-00-00Z.json.gz",
      "backup-2026-11-27T03-00-00Z.json.gz",
    ];
    expect(backupsToPrune(names, 2)).toEqual(["backup-2026-11-26T03-00-00Z.json.gz"]);
    expect(backupsToPrune(names, 3)).toEqual([]);
    expect(backupsToPrune(names, 0)).toHaveLength(3);
  });
});
