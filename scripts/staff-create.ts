/**
 * `npm run staff:create -- --email a@b.c --name "A B" --roles admin[,finance]`
 * Creates a staff account (the first admin of a deployment). The password is read from
 * a prompt (hidden) on a terminal, or from the first line of stdin when piped.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { createInterface } from "node:readline";
import { explainStartupError } from "./lib/explain-startup-error";
import { loadLocalConfig } from "./lib/local-config";
import { migrate } from "@/lib/db/migrate";

const { values } = parseArgs({ options: { email: { type: "string" }, name: { type: "string" }, roles: { type: "string" } } });
if (!values.email || !values.name || !values.roles) {
  console.error('Usage: npm run staff:create -- --email <email> --name "<name>" --roles admin[,buyer,…]');
  process.exit(2);
}

const root = path.resolve(import.meta.dirname, "..");
const config = await loadLocalConfig({ root, upstream: false }).catch((error: unknown) => {
  console.error(explainStartupError(error));
  process.exit(1);
});
let code = 0;
try {
  await migrate(config.env.DATABASE_URL, path.join(root, "prisma/migrations"));
  const password = await readPassword();
  const { createStaffAsOperator } = await import("@/lib/staff/create-staff");
  const staff = await createStaffAsOperator(
    { email: values.email, name: values.name, roles: values.roles.split(",").map((r) => r.trim()), password },
    "cli",
  );
  console.log(`Created ${staff.email} (${staff.roles.join(", ")}).`);
} catch (error) {
  const fieldErrors = (error as { fieldErrors?: Record<string, string[]> }).fieldErrors;
  console.error(
    fieldErrors
      ? Object.entries(fieldErrors)
          .map(([f, m]) => `${f}: ${m.join(" ")}`)
          .join("\n")
      : explainStartupError(error),
  );
  code = 1;
} finally {
  await config.stop();
}
process.exit(code);

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const rl = createInterface({ input: process.stdin });
    for await (const line of rl) return line;
    return "";
  }
  process.stdout.write("Password (at least 12 characters): ");
  process.stdin.setRawMode(true);
  let password = "";
  for await (const chunk of process.stdin) {
    for (const char of String(chunk)) {
      if (char === "\r" || char === "\n") {
        process.stdin.setRawMode(false);
        process.stdout.write("\n");
        return password;
      }
      if (char === "\u0003") process.exit(130);
      password = char === "\u007f" ? password.slice(0, -1) : password + char;
    }
  }
  return password;
}
