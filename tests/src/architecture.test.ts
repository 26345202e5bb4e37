import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join, posix, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { assert, describe, it } from "@effect/vitest"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
const ADAPTERS = ["adapters-http", "adapters-memory", "adapters-pg", "adapters-webhooks"]
const NEVER_TOGETHER = new Set([
  "adapters-http>adapters-pg",
  "adapters-pg>adapters-http",
  "adapters-http>adapters-memory",
  "adapters-memory>adapters-http",
  "adapters-pg>adapters-memory",
  "adapters-memory>adapters-pg"
])
const TEST_TOOLS = new Set(["vitest", "@effect/vitest"])

/** One import that breaks the layering. */
interface Violation {
  readonly file: string
  readonly specifier: string
  readonly rule: string
}

const IMPORT_CONTEXT = /(?:\bfrom|\bimport|\bimport\s*\(|\brequire\s*\()\s*$/u
const REGEX_CAN_START = /(?:^|[(,=:[!&|?{};+\-*%<>~^]|\breturn|\btypeof|\bcase)\s*$/u

/** Every module specifier a TypeScript source imports or re-exports (static, side-effect, type-only and dynamic). */
export const importsOf = (source: string): Array<string> => {
  const specifiers: Array<string> = []
  let code = ""
  let i = 0
  const readUntil = (close: string) => {
    const start = i
    while (i < source.length && source[i] !== close) i += source[i] === "\\" ? 2 : 1
    i++
    return source.slice(start, i - 1)
  }
  while (i < source.length) {
    const c = source[i]!
    const next = source[i + 1]
    if (c === "/" && next === "/") {
      while (i < source.length && source[i] !== "\n") i++
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2)
      i = end === -1 ? source.length : end + 2
      code += " "
    } else if (c === '"' || c === "'") {
      i++
      const text = readUntil(c)
      if (IMPORT_CONTEXT.test(code)) specifiers.push(text)
      code += '""'
    } else if (c === "`") {
      i++
      let depth = 0
      while (i < source.length && !(source[i] === "`" && depth === 0)) {
        if (source[i] === "\\") i++
        else if (source[i] === "$" && source[i + 1] === "{") depth++
        else if (source[i] === "}" && depth > 0) depth--
        i++
      }
      i++
      code += "``"
    } else if (c === "/" && REGEX_CAN_START.test(code)) {
      i++
      let inClass = false
      while (i < source.length && (inClass || source[i] !== "/") && source[i] !== "\n") {
        if (source[i] === "\\") i++
        else if (source[i] === "[") inClass = true
        else if (source[i] === "]") inClass = false
        i++
      }
      i++
      code += "/r/"
    } else {
      code += c
      i++
    }
  }
  return specifiers
}

/** The unit a repository path belongs to: `packages/<name>`, `apps/<name>` or `tests`. */
const unitOf = (path: string): string => {
  const [top, name] = path.split("/")
  return top === "packages" || top === "apps" ? `${top}/${name}` : (top ?? "")
}

/** Folders that group contexts without being one (the HTTP adapter's contract and handlers). */
const LAYERS = new Set(["api", "http"])
/** Folders that group nested contexts (`finance/transactions`). */
const GROUPS = new Set(["finance"])

/**
 * The bounded context a source file belongs to: `packages/<pkg>/src/[api|http/]<context>[/<nested>]`, e.g.
 * `domain:ledger`, `adapters-http:api/spend`, `domain:finance/banking`; null for a package's root modules.
 */
export const contextOf = (path: string): string | null => {
  const parts = path.split("/")
  if (parts[0] !== "packages" || parts[2] !== "src") return null
  let i = 3
  const prefix: Array<string> = []
  if (LAYERS.has(parts[i] ?? "")) prefix.push(parts[i++]!)
  if (i >= parts.length - 1) return null
  prefix.push(parts[i]!)
  if (GROUPS.has(parts[i]!) && i + 2 < parts.length) prefix.push(parts[i + 1]!)
  return `${parts[1]}:${prefix.join("/")}`
}

const isEffect = (s: string) => s === "effect" || s.startsWith("effect/")
const isPureEffect = (s: string) => s === "effect" || /^effect\/[A-Z]\w*$/u.test(s)
const svcTarget = (s: string) => /^@svc\/([^/]+)(\/.*)?$/u.exec(s)

/** The layering rules of docs/architecture.md, for one import of one file (paths relative to the repository root). */
export const checkImport = (file: string, specifier: string): Array<Violation> => {
  const out: Array<Violation> = []
  const fail = (rule: string) => out.push({ file, specifier, rule })
  const unit = unitOf(file)
  const inTest = file.split("/")[2] === "test"
  const relativeTarget = specifier.startsWith(".") ? posix.normalize(posix.join(posix.dirname(file), specifier)) : null
  if (relativeTarget !== null && unitOf(relativeTarget) !== unit) {
    fail(`a relative import may not leave ${unit}: import the other package by its name`)
  }
  if (!unit.startsWith("packages/")) return out
  const from = contextOf(file)
  const to = relativeTarget === null ? null : contextOf(relativeTarget)
  const entry = relativeTarget === null ? "" : posix.basename(relativeTarget)
  if (!inTest && to !== null && from !== to && entry !== "index.ts" && entry !== "model.ts") {
    fail(`a context reaches another only through its index.ts or model.ts (${to.split(":")[1]}/index.ts)`)
  }
  if (!inTest && to !== null && from !== to && posix.basename(file) === "model.ts" && entry !== "model.ts") {
    fail("a context's model.ts reaches other contexts only through their model.ts (no services behind it)")
  }
  const pkg = unit.slice("packages/".length)
  const svc = svcTarget(specifier)

  if (relativeTarget?.startsWith("apps/") || svc?.[1] === "api") fail("packages never import apps (or @svc/api)")

  if (pkg === "domain" && relativeTarget === null) {
    const allowed = isPureEffect(specifier) || (inTest && (TEST_TOOLS.has(specifier) || specifier === "effect/testing"))
    if (!allowed) fail("packages/domain imports only effect and its own modules")
  }

  if (pkg === "sdk" && relativeTarget === null) {
    const allowed =
      isEffect(specifier) || specifier === "@svc/adapters-http/api" || (inTest && TEST_TOOLS.has(specifier))
    if (!allowed) fail("packages/sdk imports only effect and the contract @svc/adapters-http/api")
  }

  if (ADAPTERS.includes(pkg) && svc !== null && ADAPTERS.includes(svc[1]!) && svc[1] !== pkg) {
    const target = svc[1]!
    if (NEVER_TOGETHER.has(`${pkg}>${target}`)) {
      fail(`${pkg} may not import ${target}: adapters talk only through domain ports`)
    } else if (svc[2] !== undefined && specifier !== "@svc/adapters-http/api") {
      fail(`adapters import another adapter only through its public entry @svc/${target}`)
    }
  }
  return out
}

const SKIP = new Set(["node_modules", ".data", "dist", ".git"])

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return []
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

const repositoryFiles = () =>
  ["packages", "apps", "tests"].flatMap((top) => sourceFiles(join(ROOT, top))).map((p) => relative(ROOT, p))

const violationsIn = (file: string, source: string) => importsOf(source).flatMap((s) => checkImport(file, s))

/** Sources of time and randomness the domain reads only through Clock, Random, Ids and SecureRandom. */
const AMBIENT = /\bnew Date\(|\bDate\.now\(|\bMath\.random\(|\brandomUUID\(/u

/** The lines of a domain source that read the wall clock or ambient randomness directly. */
export const ambientReads = (source: string): Array<string> => source.split("\n").filter((line) => AMBIENT.test(line))

/** The specifiers a source imports at run time: type-only imports and re-exports are erased and left out. */
export const runtimeImportsOf = (source: string): Array<string> => {
  const typeOnly = new Set<string>()
  for (const match of source.matchAll(/^\s*(?:import|export)\s+type\s[^;]*?\sfrom\s*["']([^"']+)["']/gmsu)) {
    typeOnly.add(match[1]!)
  }
  const valued = new Set<string>()
  for (const match of source.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^;]*?\sfrom\s*["']([^"']+)["']/gmsu)) {
    valued.add(match[1]!)
  }
  return importsOf(source).filter((s) => valued.has(s) || !typeOnly.has(s))
}

/** Where a workspace package specifier resolves, by the package's `exports` (null: not a workspace package). */
const resolveWorkspace = (specifier: string): string | null => {
  const match = /^@svc\/([^/]+)(\/.*)?$/u.exec(specifier)
  if (match === null) return null
  const dir = ["packages", "apps"]
    .map((top) => join(top, match[1]!))
    .find((d) => existsSync(join(ROOT, d, "package.json")))
  if (dir === undefined) return null
  const exports = JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")).exports as Record<string, string>
  const target = exports[`.${match[2] ?? ""}`]
  return target === undefined ? null : posix.join(dir, target)
}

/** Every repository source a module loads at run time, itself included. */
export const runtimeGraphOf = (start: string, read: (file: string) => string): Set<string> => {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const specifier of runtimeImportsOf(read(file))) {
      const next = specifier.startsWith(".")
        ? posix.normalize(posix.join(posix.dirname(file), specifier))
        : resolveWorkspace(specifier)
      if (next !== null) visit(next)
    }
  }
  visit(start)
  return seen
}

/** Whether a source defines a service, a port or a layer (code a client never needs). */
export const definesService = (source: string): boolean =>
  /\bContext\.Service</u.test(source) || /\bLayer\.(?:effect|succeed|unwrap|mergeAll|effectDiscard)\(/u.test(source)

describe("architecture", () => {
  it("every import in the repository respects the layering", () => {
    const files = repositoryFiles()
    const domainFiles = files.filter((f) => f.startsWith("packages/domain/src/"))
    assert.isAbove(domainFiles.length, 5, "the scan finds the domain sources")
    assert.isAbove(files.filter((f) => f.startsWith("packages/sdk/src/")).length, 0, "the scan finds the SDK sources")
    const imports = files.flatMap((f) => importsOf(readFileSync(join(ROOT, f), "utf8")))
    assert.isAbove(imports.length, 100, "the scan reads imports")
    const violations = files.flatMap((f) => violationsIn(f, readFileSync(join(ROOT, f), "utf8")))
    assert.deepStrictEqual(violations, [])
  })

  it("the domain reads time and randomness only through services (Clock, Random, Ids, SecureRandom)", () => {
    const domainFiles = repositoryFiles().filter((f) => f.startsWith("packages/domain/src/"))
    const found = domainFiles.flatMap((f) =>
      ambientReads(readFileSync(join(ROOT, f), "utf8")).map((line) => `${f}: ${line.trim()}`)
    )
    assert.deepStrictEqual(found, [])
  })

  it("the SDK loads the HTTP contract and the domain's models, never a service, a port or server code", () => {
    const read = (file: string) => readFileSync(join(ROOT, file), "utf8")
    const sdk = repositoryFiles().filter((f) => f.startsWith("packages/sdk/src/"))
    const graph = new Set(sdk.flatMap((f) => [...runtimeGraphOf(f, read)]))
    assert.isTrue(graph.has("packages/adapters-http/src/api/index.ts"), "the SDK loads the contract")
    assert.isTrue(graph.has("packages/domain/src/model.ts"), "the contract loads the domain's models")
    const offending = [...graph].filter(
      (f) =>
        f.startsWith("packages/adapters-http/src/http/") ||
        (f.startsWith("packages/domain/src/") && definesService(read(f))) ||
        !(
          f.startsWith("packages/sdk/") ||
          f.startsWith("packages/adapters-http/src/api/") ||
          f.startsWith("packages/domain/")
        )
    )
    assert.deepStrictEqual(offending, [])
  })

  describe("the checker itself", () => {
    it("follows run-time imports only, through relative paths and workspace packages", () => {
      const sources: Record<string, string> = {
        "packages/sdk/src/A.ts":
          'import type { T } from "./T.ts"\nimport { b } from "./B.ts"\nexport type { U } from "./U.ts"',
        "packages/sdk/src/B.ts": 'import { type C, d } from "@svc/domain/model"\nexport * from "./E.ts"',
        "packages/sdk/src/E.ts": "export const e = 1",
        "packages/domain/src/model.ts": 'export * from "./x/model.ts"',
        "packages/domain/src/x/model.ts": "export const x = 1"
      }
      const graph = runtimeGraphOf("packages/sdk/src/A.ts", (f) => sources[f] ?? "")
      assert.deepStrictEqual([...graph].sort(), [
        "packages/domain/src/model.ts",
        "packages/domain/src/x/model.ts",
        "packages/sdk/src/A.ts",
        "packages/sdk/src/B.ts",
        "packages/sdk/src/E.ts"
      ])
      assert.isTrue(definesService('export class X extends Context.Service<X, {}>()("x") {}'))
      assert.isTrue(definesService("export const L = Layer.effect(X, make)"))
      assert.isFalse(definesService("export const S = Schema.Struct({ a: Schema.String })"))
    })

    it("finds direct reads of the clock and of ambient randomness", () => {
      for (const line of [
        "const t = new Date()",
        "new Date(ms).toISOString()",
        "Date.now()",
        "Math.random()",
        "crypto.randomUUID()"
      ]) {
        assert.deepStrictEqual(ambientReads(line), [line])
      }
      assert.deepStrictEqual(ambientReads("const d = yield* Clock.currentTimeMillis\nisoOfMillis(ms)"), [])
    })

    it("reads static, re-export, side-effect, type-only, multi-line and dynamic imports", () => {
      const source = [
        'import { a } from "one"',
        "import type { B } from 'two'",
        'import "three"',
        'export * from "./four.ts"',
        'export { c } from "five"',
        'import {\n  d,\n  e\n} from "six"',
        'const m = await import("seven")',
        "const n = await import ( 'eight' )"
      ].join("\n")
      assert.deepStrictEqual(importsOf(source), ["one", "two", "three", "./four.ts", "five", "six", "seven", "eight"])
    })

    it("ignores comments, strings, templates and regular expressions that only look like imports", () => {
      const source = [
        '// import { x } from "node:fs"',
        '/* export * from "node:net" */',
        'const s = "import { y } from \\"node:os\\""',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source under test holds a template literal
        "const t = `import(\"node:http\") ${'x'}`",
        'const r = /from "node:zlib"/u',
        'const url = "http://example.com" // from "node:dns"',
        'import { ok } from "effect"'
      ].join("\n")
      assert.deepStrictEqual(importsOf(source), ["effect"])
    })

    it("reports a domain module that imports a Node built-in, another package or an I/O module of effect", () => {
      for (const specifier of ["node:fs", "fs", "@svc/adapters-pg", "effect/sql", "effect/http", "jose"]) {
        const found = violationsIn("packages/domain/src/Bad.ts", `import { x } from "${specifier}"`)
        assert.strictEqual(found.length, 1, specifier)
        assert.match(found[0]!.rule, /domain imports only effect/u)
      }
      assert.deepStrictEqual(violationsIn("packages/domain/src/Good.ts", 'import { Effect } from "effect"'), [])
      assert.deepStrictEqual(violationsIn("packages/domain/src/Good.ts", 'import * as S from "effect/Schema"'), [])
      assert.strictEqual(violationsIn("packages/domain/src/Bad.ts", 'await import("node:crypto")').length, 1)
      assert.strictEqual(violationsIn("packages/domain/src/Bad.ts", 'export * from "node:path"').length, 1)
    })

    it("reports a relative import that reaches into another package or an app", () => {
      const found = violationsIn("packages/domain/src/Bad.ts", 'import { x } from "../../adapters-pg/src/Sql.ts"')
      assert.match(found[0]!.rule, /may not leave packages\/domain/u)
      const intoApp = violationsIn(
        "packages/adapters-http/src/x/Bad.ts",
        'import { y } from "../../../../apps/api/src/App.ts"'
      )
      assert.isTrue(intoApp.some((v) => /never import apps/u.test(v.rule)))
      assert.deepStrictEqual(violationsIn("packages/domain/src/memory/Ok.ts", 'import { z } from "../Teams.ts"'), [])
    })

    it("reports adapters that import another adapter's internals, or http and pg importing each other", () => {
      assert.match(
        violationsIn("packages/adapters-http/src/http/Bad.ts", 'import { PortsPg } from "@svc/adapters-pg"')[0]!.rule,
        /adapters talk only through domain ports/u
      )
      assert.match(
        violationsIn("packages/adapters-pg/src/Bad.ts", 'import { Api } from "@svc/adapters-http/api"')[0]!.rule,
        /adapters talk only through domain ports/u
      )
      assert.match(
        violationsIn(
          "packages/adapters-webhooks/src/Bad.ts",
          'import { TestDatabase } from "@svc/adapters-pg/testing"'
        )[0]!.rule,
        /public entry/u
      )
      assert.deepStrictEqual(
        violationsIn("packages/adapters-webhooks/src/Ok.ts", 'import { Api } from "@svc/adapters-http/api"'),
        []
      )
      assert.deepStrictEqual(
        violationsIn("packages/adapters-webhooks/src/Ok.ts", 'import { PortsPg } from "@svc/adapters-pg"'),
        []
      )
    })

    it("reports a model.ts that reaches another context's services", () => {
      const found = violationsIn("packages/domain/src/spend/model.ts", 'export * from "../approvals/index.ts"')
      assert.match(found[0]!.rule, /model\.ts reaches other contexts only through their model\.ts/u)
      assert.deepStrictEqual(
        violationsIn("packages/domain/src/spend/model.ts", 'export * from "../approvals/model.ts"'),
        []
      )
    })

    it("reports a context that reaches into another context's modules instead of its index", () => {
      assert.strictEqual(contextOf("packages/domain/src/ledger/Ledger.ts"), "domain:ledger")
      assert.strictEqual(contextOf("packages/domain/src/finance/banking/X.ts"), "domain:finance/banking")
      assert.strictEqual(contextOf("packages/adapters-http/src/http/spend/X.ts"), "adapters-http:http/spend")
      assert.strictEqual(contextOf("packages/domain/src/index.ts"), null)
      assert.strictEqual(contextOf("packages/adapters-http/src/api/Api.ts"), null)
      const found = violationsIn("packages/domain/src/spend/Bad.ts", 'import { Ledger } from "../ledger/Ledger.ts"')
      assert.match(found[0]!.rule, /only through its index\.ts or model\.ts \(ledger\/index\.ts\)/u)
      assert.strictEqual(
        violationsIn("packages/adapters-http/src/http/spend/Bad.ts", 'import { A } from "../../api/spend/SpendApi.ts"')
          .length,
        1
      )
      assert.strictEqual(
        violationsIn("packages/domain/src/finance/banking/Bad.ts", 'import { B } from "../documents/Inbox.ts"').length,
        1
      )
      assert.deepStrictEqual(
        violationsIn("packages/domain/src/spend/Ok.ts", 'import { L } from "../ledger/index.ts"'),
        []
      )
      assert.deepStrictEqual(
        violationsIn("packages/domain/src/spend/Ok.ts", 'import { P } from "./SpendPolicy.ts"'),
        []
      )
      assert.deepStrictEqual(violationsIn("packages/domain/src/index.ts", 'export * from "./ledger/index.ts"'), [])
    })

    it("reports any package importing @svc/api", () => {
      for (const pkg of ["domain", "adapters-http", "adapters-pg", "adapters-webhooks", "sdk"]) {
        const found = violationsIn(`packages/${pkg}/src/Bad.ts`, 'import { appInMemory } from "@svc/api"')
        assert.isTrue(
          found.some((v) => /never import apps/u.test(v.rule)),
          pkg
        )
      }
      assert.deepStrictEqual(violationsIn("tests/src/Ok.test.ts", 'import { appInMemory } from "@svc/api"'), [])
    })

    it("reports an SDK that imports server code, Node or anything but effect and the contract", () => {
      for (const specifier of ["@svc/adapters-http", "@svc/domain", "node:http", "jose", "@svc/adapters-http/http"]) {
        assert.strictEqual(
          violationsIn("packages/sdk/src/Bad.ts", `import { x } from "${specifier}"`).length,
          1,
          specifier
        )
      }
      assert.deepStrictEqual(
        violationsIn("packages/sdk/src/Ok.ts", 'import { HttpApiClient } from "effect/http-api"'),
        []
      )
    })
  })
})
