import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * A throw-away PostgreSQL (Debian's, as scripts/test-all.sh starts one for the integration
 * suite) on a loopback port: initdb into a temporary folder, pg_ctl start, one database.
 * As root the server runs as the postgres user, which must be able to reach the folder.
 */
export function startRealPostgres(port: number): { url: string; stop(): void } {
  const versions = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(a) - Number(b));
  if (versions.length === 0) throw new Error("PostgreSQL is not installed: apt-get install -y postgresql");
  const bin = (name: string) => path.join("/usr/lib/postgresql", versions.at(-1)!, "bin", name);
  const dir = mkdtempSync("/tmp/dgis-bench-pg-");
  chmodSync(dir, 0o755);
  const root = process.getuid?.() === 0;
  const run = (name: string, args: string[]) => {
    if (root) execFileSync("chown", ["-R", "postgres", dir]);
    const [command, all] = root ? ["runuser", ["-u", "postgres", "--", bin(name), ...args]] : [bin(name), args];
    execFileSync(command as string, all as string[], { stdio: ["ignore", "ignore", "inherit"] });
  };
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]);
  run("pg_ctl", [
    "-D",
    data,
    "-l",
    path.join(dir, "log"),
    "-w",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    "start",
  ]);
  run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "bench"]);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/bench`,
    stop() {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
