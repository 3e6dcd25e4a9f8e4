import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const SOURCES = [
  "app",
  "components",
  "lib",
  "public",
  "next.config.mjs",
  "tailwind.config.ts",
  "postcss.config.mjs",
  "package-lock.json",
];

/** True when there is no production build, or a source file is newer than it. */
export function buildIsStale(root: string): boolean {
  const buildId = path.join(root, ".next/BUILD_ID");
  if (!existsSync(buildId)) return true;
  const builtAt = statSync(buildId).mtimeMs;
  return SOURCES.some((entry) => newestMtime(path.join(root, entry)) > builtAt);
}

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === "generated" || entry.name === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}
