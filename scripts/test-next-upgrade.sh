#!/usr/bin/env bash
# Proof that a Next upgrade is safe for the edge: the gate and webhook-door specs (and dev mode)
# against the newest Next 16 minor on the registry, not only the pinned one. The edge imports
# nothing of Next's internals (lint proves it) and reads nothing of its build, so this should
# always pass; when it does not, the upgrade is what broke, and this says so before anyone pins it.
# When the pinned Next is the newest 16.x, the suite that just ran was that run, and this stops.
set -euo pipefail
cd "$(dirname "$0")/.."

pinned=$(node -p 'require("./package.json").dependencies.next')
newest=$(npm view 'next@^16' version --json | node -e 'const v = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(Array.isArray(v) ? v.at(-1) : v)')
if [ "$pinned" = "$newest" ]; then
  echo "[next-upgrade] the pinned Next ($pinned) is the newest 16.x on the registry: the e2e suite above ran against it"
  exit 0
fi

echo "[next-upgrade] the gate and webhook specs against next@$newest (pinned: $pinned)"
copy=$(mktemp -d /tmp/dgis-next-upgrade.XXXXXX)
trap 'rm -rf "$copy"' EXIT
git ls-files -z | xargs -0 -I{} cp --parents {} "$copy"/
cp -r node_modules "$copy"/node_modules
cd "$copy"
npm install --no-audit --no-fund --no-save "next@$newest" "eslint-config-next@$newest" >/dev/null
E2E_PORT=3180 E2E_DB_PORT=25483 E2E_SANDBOX_PORT=4680 E2E_DEV_PORT=3185 E2E_DEV_DB_PORT=25488 E2E_DEV_SANDBOX_PORT=4685 \
  npx playwright test tests/e2e/fuzz.spec.ts tests/e2e/webhook-door.spec.ts tests/e2e/sign-in-redirect.spec.ts tests/e2e/dev-mode.spec.ts
