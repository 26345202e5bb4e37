import { readFileSync, writeFileSync } from "node:fs"
import { withContextTable } from "../tests/src/support/ContextMap.ts"

const DOC = new URL("../docs/architecture.md", import.meta.url)
const written = readFileSync(DOC, "utf8")
const generated = withContextTable(written)

if (process.argv.includes("--write")) {
  writeFileSync(DOC, generated)
  console.log("docs/architecture.md: context table written from tests/src/support/ContextMap.ts")
} else if (generated !== written) {
  console.log("docs/architecture.md's context table differs from the context map: `npm run context-map`")
  process.exitCode = 1
}
