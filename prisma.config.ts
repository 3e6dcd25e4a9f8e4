import { defineConfig } from "prisma/config";

// Prisma's CLI is used only for `prisma generate` here (no schema engine can be
// downloaded); migrations are applied by scripts/migrate.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
