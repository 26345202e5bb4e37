import { rmSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { rolldown } from "rolldown"

/**
 * Builds the service that `npm start` runs (ADR 0063): `apps/api/src/main.ts` and everything it imports, bundled and
 * minified into `apps/api/dist/`. A process started from the bundle skips TypeScript's type stripping (its
 * WebAssembly compiler stays resident, about 35 MB) and holds one compact module instead of some two thousand
 * commented sources: about a third less memory at start (docs/benchmarks.md). Left outside the bundle, loaded from
 * node_modules when first needed: packages that read files beside their own code (PGlite's WebAssembly and data,
 * pdfkit's font metrics, the DejaVu fonts) and the EVM client. Sources keep running as they are (`node
 * apps/api/src/main.ts`, which the tests do); the bundle is what a deployment runs.
 */

const root = fileURLToPath(new URL("../", import.meta.url))
const out = `${root}apps/api/dist/`

/** Loaded from node_modules at run time rather than bundled. */
const EXTERNAL = [/^node:/u, /^@electric-sql\//u, /^pdfkit(\/|$)/u, /^dejavu-fonts-ttf(\/|$)/u, /^viem(\/|$)/u]

const started = Date.now()
rmSync(out, { recursive: true, force: true })
const bundle = await rolldown({
  input: `${root}apps/api/src/main.ts`,
  platform: "node",
  external: (id) => EXTERNAL.some((pattern) => pattern.test(id)),
  logLevel: "warn"
})
await bundle.write({ dir: out, format: "esm", minify: true })
await bundle.close()
console.log(`built apps/api/dist/main.js in ${Date.now() - started} ms`)
