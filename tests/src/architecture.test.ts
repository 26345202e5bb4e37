import { readdirSync, readFileSync } from "node:fs"
import { join, posix, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { assert, describe, it } from "@effect/vitest"

const ROOT = fileURLToPath(new URL("../../", import.meta.url))
const ADAPTERS = ["adapters-http", "adapters-pg", "adapters-webhooks"]
const NEVER_TOGETHER = new Set(["adapters-http>adapters-pg", "adapters-pg>adapters-http"])
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

  describe("the checker itself", () => {
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
