#!/usr/bin/env bash
# Runs every suite (static checks, vitest, Playwright) and prints the totals as the last line.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp
rm -f .tmp/vitest.json .tmp/playwright.json
passed=0
failed=0
check() { # a named static check counts as one test
  local name=$1; shift
  if "$@" > .tmp/check.log 2>&1; then passed=$((passed + 1)); echo "✓ $name";
  else failed=$((failed + 1)); echo "✗ $name"; cat .tmp/check.log; fi
}
# The two halves separately (stricter than the combined tsconfig.json: the server gets no DOM).
check "typecheck server" npx tsc --noEmit -p tsconfig.server.json
check "typecheck ui" npx tsc --noEmit -p ui/tsconfig.json
check "dependency boundaries" npx depcruise src ui/src --config .dependency-cruiser.cjs
check "lint" npx biome check src ui/src ops tests
npm run -s build:ui || { echo "UI build failed"; failed=$((failed + 1)); }

npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json

# The browser suite needs Debian's Chromium (Playwright never downloads a browser here). As root,
# install it; otherwise stop before the suite with the command to run, counted as one failure.
chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
browser_skipped=0
if [ ! -x "$chromium" ] && [ -z "${CHROMIUM_PATH:-}" ] && [ "$(id -u)" -eq 0 ] && command -v apt-get > /dev/null; then
  echo "Chromium is missing at $chromium: installing Debian's chromium (apt-get install -y chromium)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium \
    || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }
fi
if [ -x "$chromium" ]; then
  npx playwright test
else
  browser_skipped=1
  failed=$((failed + 1))
  echo "✗ browser tests not run: no Chromium at $chromium."
  sudo=$([ "$(id -u)" -eq 0 ] || echo "sudo ")
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    echo "  CHROMIUM_PATH=$CHROMIUM_PATH is not an executable: point it at Chromium, or unset it and run: ${sudo}apt-get install -y chromium"
  else
    echo "  Install it, then run npm test again:  ${sudo}apt-get update && ${sudo}apt-get install -y chromium"
  fi
fi

read -r vp vf vs < <(BROWSER_SKIPPED=$browser_skipped node -e '
  const fs = require("fs");
  let p = 0, f = 0, k = 0;
  try {
    const v = JSON.parse(fs.readFileSync(".tmp/vitest.json", "utf8"));
    p += v.numPassedTests; k += v.numPendingTests + v.numTodoTests;
    f += v.numFailedTests + (v.success === false && v.numFailedTests === 0 ? 1 : 0);
  } catch { f += 1; }
  if (process.env.BROWSER_SKIPPED !== "1") {
    try { const s = JSON.parse(fs.readFileSync(".tmp/playwright.json", "utf8")).stats; p += s.expected + s.flaky; f += s.unexpected; k += s.skipped; } catch { f += 1; }
  }
  console.log(p, f, k);')
passed=$((passed + vp))
failed=$((failed + vf))
echo "${passed} passed, ${failed} failed, ${vs} skipped"
[ "$failed" -eq 0 ]
