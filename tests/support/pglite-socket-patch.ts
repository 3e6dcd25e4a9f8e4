import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The app's patch of @electric-sql/pglite-socket (patches/, applied by `npm install`'s
 * postinstall through patch-package): which version it was made for, the files it changes, and
 * those files as the package shipped them (the patch's context and removed lines: each hunk
 * covers its whole file, the package's build being a line or two of minified code).
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const PACKAGE = "@electric-sql/pglite-socket";
export const PATCH_MARKER = "Patched by this app (patches/@electric-sql+pglite-socket+";

export function socketPatch() {
  const name = readdirSync(path.join(ROOT, "patches")).find((file) => file.startsWith("@electric-sql+pglite-socket+"));
  if (!name) throw new Error("no patch of @electric-sql/pglite-socket in patches/");
  const text = readFileSync(path.join(ROOT, "patches", name), "utf8");
  const files = new Map<string, string>();
  for (const part of text.split(/^diff --git /m).slice(1)) {
    const file = /^a\/node_modules\/@electric-sql\/pglite-socket\/(\S+)/.exec(part)![1]!;
    const hunks = part.split(/^@@ /m).slice(1);
    if (hunks.length !== 1 || !hunks[0]!.startsWith("-1,")) throw new Error(`${file}: expected one hunk from line 1`);
    const lines = hunks[0]!.split("\n").slice(1);
    const original: string[] = [];
    for (const [i, line] of lines.entries()) {
      if (line.startsWith(" ") || line.startsWith("-")) original.push(line.slice(1));
      // "\ No newline at end of file" after the original's last line: that line has no newline.
      else if (line.startsWith("\\") && lines[i - 1]?.startsWith("-")) original.push("\u0000");
    }
    files.set(file, original.join("\n").replace(/\n\u0000$/, ""));
  }
  return { version: /\+([^+]+)\.patch$/.exec(name)![1]!, files };
}

export function installedSocketPackage() {
  // Where patch-package applies it, and where Node resolves the package from this app.
  const dir = path.join(ROOT, "node_modules", PACKAGE);
  const { version } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string };
  return { dir, version };
}
