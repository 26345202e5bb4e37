import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join, posix, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { allowedUse, isContext } from "./ContextMap.ts"

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../../", import.meta.url))
const ADAPTERS = [
  "adapters-http",
  "adapters-memory",
  "adapters-pg",
  "adapters-webhooks",
  "adapters-fs",
  "adapters-evm",
  "adapters-integrations"
]
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

/** A context's name on the map: `domain:finance/banking` and `adapters-http:api/spend` are `finance/banking` and `spend`. */
const mapNameOf = (context: string): string => context.slice(context.indexOf(":") + 1).replace(/^(?:api|http)\//u, "")

const isEffect = (s: string) => s === "effect" || s.startsWith("effect/")
/** Effect's modules without I/O; `effect/net` for its address and network values (NetAddress, IpNetwork). */
const isPureEffect = (s: string) => s === "effect" || s === "effect/net" || /^effect\/[A-Z]\w*$/u.test(s)
const svcTarget = (s: string) => /^@svc\/([^/]+)(\/.*)?$/u.exec(s)

/** The layering rules of docs/architecture.md, for one import of one file (paths relative to the repository root). */
const checkImport = (file: string, specifier: string, read: (file: string) => string): Array<Violation> => {
  const out: Array<Violation> = []
  const fail = (rule: string) => out.push({ file, specifier, rule })
  const unit = unitOf(file)
  const inTest = file.split("/")[2] === "test"
  const relativeTarget = specifier.startsWith(".") ? posix.normalize(posix.join(posix.dirname(file), specifier)) : null
  if (relativeTarget !== null && unitOf(relativeTarget) !== unit) {
    fail(`a relative import may not leave ${unit}: import the other package by its name`)
  }
  if (unit === "apps/dashboard" && relativeTarget === null) {
    const allowed =
      specifier === "preact" ||
      specifier.startsWith("preact/") ||
      specifier === "@svc/sdk" ||
      specifier === "@svc/domain/model" ||
      (file === "apps/dashboard/vite.config.ts" && specifier === "vite") ||
      (inTest && TEST_TOOLS.has(specifier))
    if (!allowed) fail("apps/dashboard runs in the browser: it imports only preact, @svc/sdk and @svc/domain/model")
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
  if (!inTest && from !== null && to !== null && (entry === "index.ts" || entry === "model.ts")) {
    const user = mapNameOf(from)
    const used = mapNameOf(to)
    const use = user !== used && isContext(user) && isContext(used) ? allowedUse(user, used) : "all"
    if (use === "none") fail(`the context map does not let ${user} use ${used} (tests/src/support/ContextMap.ts)`)
    if (use === "model" && pkg === "domain" && entry !== "model.ts") {
      fail(`the context map lets ${user} use only ${used}'s model.ts`)
    }
  }
  if (!inTest && from !== null && to !== null && from !== to && entry === "index.ts") {
    const model = posix.join(posix.dirname(relativeTarget!), "model.ts")
    const names = typeImportsOf(read(file)).find((t) => t.specifier === specifier)?.names ?? []
    const offered = names.length === 0 ? new Set<string>() : exportedNamesOf(model, read)
    const shapes = names.filter((name) => offered.has(name))
    if (shapes.length > 0) {
      fail(`a type import of another context's shapes goes through its model.ts (${shapes.join(", ")})`)
    }
  }
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
    return entry.name.endsWith(".ts") || entry.name.endsWith(".tsx") ? [path] : []
  })

/** Every TypeScript source under packages, apps and tests, relative to the repository root. */
export const repositoryFiles = () =>
  ["packages", "apps", "tests"].flatMap((top) => sourceFiles(join(ROOT, top))).map((p) => relative(ROOT, p))

/** A repository source by its path from the root; empty when there is none. */
const readSource = (file: string): string => {
  const path = join(ROOT, file)
  return existsSync(path) ? readFileSync(path, "utf8") : ""
}

/**
 * The layering rules a source breaks, one violation per offending import; `read` gives the other sources the rules
 * look into (another context's model.ts), the repository's by default.
 */
export const violationsIn = (file: string, source: string, read: (file: string) => string = readSource) => {
  const reading = (path: string) => (path === file ? source : read(path))
  return importsOf(source).flatMap((s) => checkImport(file, s, reading))
}

/** Sources of time and randomness the domain reads only through Clock, Random, Ids and SecureRandom. */
const AMBIENT = /\bnew Date\(|\bDate\.now\(|\bMath\.random\(|\brandomUUID\(/u

/** The lines of a domain source that read the wall clock or ambient randomness directly. */
export const ambientReads = (source: string): Array<string> => source.split("\n").filter((line) => AMBIENT.test(line))

/**
 * The lines of a Postgres adapter source that inspect a SQL failure. Only the shared plumbing may (`shared/Sql.ts`
 * turns every one into PersistenceUnavailable, which ends the unit of work; `shared/Database.ts` retries start-up,
 * outside any transaction). A failed statement aborts the transaction it runs in, so a repository never recovers from
 * one: a conflict the domain goes on from is read from the statement's result instead.
 */
export const sqlErrorReads = (source: string): Array<string> =>
  source.split("\n").filter((line) => /\bSqlError\b/u.test(line))

/** A line that is only a comment (`//`, or a line of a block comment or JSDoc). */
const isCommentLine = (line: string) => /^\s*(?:\/\/|\/\*|\*)/u.test(line)

/**
 * The lines of a source that read the environment: `process.env`, an effect `Config` naming a variable, or the
 * environment's `ConfigProvider`. Comment lines (a JSDoc example) are not reads.
 */
export const environmentReads = (source: string): Array<string> =>
  source
    .split("\n")
    .filter(
      (line) =>
        !isCommentLine(line) &&
        /\bprocess\.env\b|\bConfig\.(?:[A-Z]\w*|schema)\(|\bConfigProvider\.fromEnv\b/u.test(line)
    )

/**
 * The lines of a module that read the environment where only an app may: a package's sources take their settings as
 * values (ADR 0048); its `testing/` support and its tests may read what a test run is given (`DATABASE_URL`).
 */
export const settingsReadsIn = (file: string, source: string): Array<string> =>
  /^packages\/[^/]+\/src\//u.test(file) &&
  !/^packages\/[^/]+\/src\/testing\//u.test(file) &&
  !/\.test\.tsx?$/u.test(file)
    ? environmentReads(source)
    : []

/** Whether a module of apps/api may read the environment: `Config.ts` and the modules of `config/` beside it. */
export const isApiConfigModule = (file: string): boolean =>
  file === "apps/api/src/Config.ts" || /^apps\/api\/src\/config\/[^/]+\.ts$/u.test(file)

/** The lines of an apps/api module that read the environment where it may not (outside its configuration modules). */
export const apiEnvironmentReadsIn = (file: string, source: string): Array<string> =>
  isApiConfigModule(file) ? [] : environmentReads(source)

/** The environment variables a source names (a quoted `UPPER_SNAKE` string), once per mention. */
export const variablesNamed = (source: string): Array<string> =>
  [...source.matchAll(/"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"/gu)].map((match) => match[1] ?? "")

/** The specifiers a source imports at run time: type-only imports and re-exports are erased and left out. */
const runtimeImportsOf = (source: string): Array<string> => {
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

/**
 * The file-level import graph of the given sources: each file's relative imports of every kind (static, type-only,
 * re-exports, dynamic), resolved to repository paths.
 */
export const importGraphOf = (
  files: ReadonlyArray<string>,
  read: (file: string) => string
): Map<string, ReadonlyArray<string>> =>
  new Map(
    files.map((file) => [
      file,
      importsOf(read(file))
        .filter((s) => s.startsWith("."))
        .map((s) => posix.normalize(posix.join(posix.dirname(file), s)))
    ])
  )

/** The import cycles of a graph: its strongly connected components of more than one file, each sorted (Tarjan). */
export const cyclesOf = (graph: ReadonlyMap<string, ReadonlyArray<string>>): Array<Array<string>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const cycles: Array<Array<string>> = []
  const visit = (file: string) => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    onStack.add(file)
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue
      if (!index.has(next)) {
        visit(next)
        low.set(file, Math.min(low.get(file)!, low.get(next)!))
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!))
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: Array<string> = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== file)
      if (component.length > 1) cycles.push(component.sort())
    }
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return cycles
}

/** The names a module exports, through its `export *` and `export { } from` re-exports of repository modules. */
const exportedNamesOf = (file: string, read: (file: string) => string): Set<string> => {
  const names = new Set<string>()
  const visit = (path: string, seen: Set<string>) => {
    if (seen.has(path)) return
    seen.add(path)
    const source = read(path)
    for (const match of source.matchAll(/^export\s+\*\s+from\s*["']([^"']+)["']/gmu)) {
      if (match[1]!.startsWith(".")) visit(posix.normalize(posix.join(posix.dirname(path), match[1]!)), seen)
    }
    for (const match of source.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gmu)) {
      for (const name of namesIn(match[1]!)) names.add(name.exported)
    }
    for (const match of source.matchAll(
      /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:const|let|class|interface|type|function\*?|enum)\s+([A-Za-z_$][\w$]*)/gmu
    )) {
      names.add(match[1]!)
    }
  }
  visit(file, new Set())
  return names
}

/** The names of an import or export list (`a, type B, c as d`): each as the module offers it and as it is bound. */
const namesIn = (list: string): Array<{ readonly imported: string; readonly exported: string }> =>
  list
    .split(",")
    .map((part) => part.trim().replace(/^type\s+/u, ""))
    .filter((part) => part !== "")
    .map((part) => {
      const [imported, exported] = part.split(/\s+as\s+/u)
      return { imported: imported!, exported: exported ?? imported! }
    })

/** The type-only imports of a source (`import type { A, B } from "x"`): each specifier with the names it imports. */
const typeImportsOf = (source: string): Array<{ readonly specifier: string; readonly names: ReadonlyArray<string> }> =>
  [...source.matchAll(/^\s*(?:import|export)\s+type\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/gmu)].map((match) => ({
    specifier: match[2]!,
    names: namesIn(match[1]!).map((name) => name.imported)
  }))
