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
check "dependency boundaries" npx depcruise src --config .dependency-cruiser.cjs
check "lint" npx biome check src ui/src ops tests
npm run -s build:ui || { echo "UI build failed"; failed=$((failed + 1)); }

npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json
npx playwright test

read -r vp vf vs < <(node -e '
  const fs = require("fs");
  let p = 0, f = 0, k = 0;
  try {
    const v = JSON.parse(fs.readFileSync(".tmp/vitest.json", "utf8"));
    p += v.numPassedTests; k += v.numPendingTests + v.numTodoTests;
    f += v.numFailedTests + (v.success === false && v.numFailedTests === 0 ? 1 : 0);
  } catch { f += 1; }
  try { const s = JSON.parse(fs.readFileSync(".tmp/playwright.json", "utf8")).stats; p += s.expected + s.flaky; f += s.unexpected; k += s.skipped; } catch { f += 1; }
  console.log(p, f, k);')
passed=$((passed + vp))
failed=$((failed + vf))
echo "${passed} passed, ${failed} failed, ${vs} skipped"
[ "$failed" -eq 0 ]
