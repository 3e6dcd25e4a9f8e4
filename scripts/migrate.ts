/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database). */
import path from "node:path";
import { explainStartupError } from "./lib/explain-startup-error";
import { loadLocalConfig } from "./lib/local-config";
import { migrate } from "@/lib/db/migrate";

const root = path.resolve(import.meta.dirname, "..");
const config = await loadLocalConfig({ root, upstream: false }).catch((error: unknown) => {
  console.error(explainStartupError(error));
  process.exit(1);
});
try {
  const result = await migrate(config.env.DATABASE_URL, path.join(root, "prisma/migrations"));
  console.log(
    result.applied.length
      ? `Applied: ${result.applied.join(", ")}`
      : `Nothing to apply (${result.alreadyApplied} migration(s) already applied).`,
  );
} catch (error) {
  console.error(explainStartupError(error));
  process.exitCode = 1;
} finally {
  await config.stop();
}
