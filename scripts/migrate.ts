/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database). */
import path from "node:path";
import { loadLocalConfig } from "./lib/local-config";
import { migrate } from "@/lib/db/migrate";

const root = path.resolve(import.meta.dirname, "..");
const config = await loadLocalConfig({ root, upstream: false });
try {
  const result = await migrate(config.env.DATABASE_URL, path.join(root, "prisma/migrations"));
  console.log(result.applied.length ? `Applied: ${result.applied.join(", ")}` : `Nothing to apply (${result.alreadyApplied} migration(s) already applied).`);
} finally {
  await config.stop();
}
