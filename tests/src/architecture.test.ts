import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import {
  ambientReads,
  apiEnvironmentReadsIn,
  cyclesOf,
  definesService,
  importGraphOf,
  importsOf,
  isApiConfigModule,
  ROOT,
  repositoryFiles,
  runtimeGraphOf,
  settingsReadsIn,
  sqlErrorReads,
  variablesNamed,
  violationsIn
} from "./support/ArchitectureRules.ts"
import { CONTEXT_MAP, isContext, usesGraph, withContextTable } from "./support/ContextMap.ts"

const read = (file: string) => readFileSync(join(ROOT, file), "utf8")

/** The contexts of the map an index lists (`export * from "./<context>/index.ts"` and the like). */
const contextsListedIn = (index: string): Array<string> =>
  importsOf(read(index))
    .map((specifier) => /^\.\/(.+)\/index\.ts$/u.exec(specifier)?.[1])
    .filter((name): name is string => name !== undefined && isContext(name))

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

  it("a Postgres repository never recovers from a failed statement: only the shared SQL plumbing reads SqlError", () => {
    const adapters = repositoryFiles().filter(
      (f) => f.startsWith("packages/adapters-pg/src/") && !f.startsWith("packages/adapters-pg/src/shared/")
    )
    assert.isAbove(adapters.length, 10, "the scan finds the adapter sources")
    const found = adapters.flatMap((f) =>
      sqlErrorReads(readFileSync(join(ROOT, f), "utf8")).map((line) => `${f}: ${line.trim()}`)
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

  it("the x402 settlements of a process that watches no chain load no EVM client (viem stays out, ADR 0063)", () => {
    const loadsViem = (start: string) =>
      [...runtimeGraphOf(start, read)].filter((f) => importsOf(read(f)).some((s) => /^viem(?:\/|$)/u.test(s)))
    assert.deepStrictEqual(loadsViem("packages/adapters-evm/src/x402/X402SettlementsEvm.ts"), [
      "packages/adapters-evm/src/x402/X402SettlementsEvm.ts"
    ])
    assert.deepStrictEqual(loadsViem("packages/adapters-evm/src/x402/X402SettlementsUnwatched.ts"), [])
  })

  it("the API reads its environment only in Config.ts and config/, which name each variable once among them", () => {
    const api = repositoryFiles().filter((f) => f.startsWith("apps/api/src/"))
    const configModules = api.filter(isApiConfigModule)
    assert.include(configModules, "apps/api/src/Config.ts", "the scan finds the configuration module")
    assert.isAbove(configModules.length, 1, "the scan finds the modules of config/")
    const read = (file: string) => readFileSync(join(ROOT, file), "utf8")
    const found = api.flatMap((f) => apiEnvironmentReadsIn(f, read(f)).map((line) => `${f}: ${line.trim()}`))
    assert.deepStrictEqual(found, [])
    const named = configModules.flatMap((f) => variablesNamed(read(f)))
    assert.isAbove(named.length, 40, "the scan finds the variables")
    assert.deepStrictEqual(
      named.filter((name, index) => named.indexOf(name) !== index),
      []
    )
  })

  it("no package reads the environment: each takes its settings, which the apps read (testing/ support aside)", () => {
    const packages = repositoryFiles().filter((f) => f.startsWith("packages/"))
    assert.isAbove(packages.length, 100, "the scan finds the package sources")
    const found = packages.flatMap((f) =>
      settingsReadsIn(f, readFileSync(join(ROOT, f), "utf8")).map((line) => `${f}: ${line.trim()}`)
    )
    assert.deepStrictEqual(found, [])
  })

  it("no import cycle among the sources of packages and apps, type imports and re-exports included", () => {
    const sources = repositoryFiles().filter((f) => /^(?:packages|apps)\/[^/]+\/src\//u.test(f))
    const graph = importGraphOf(sources, read)
    assert.isAbove([...graph.values()].flat().length, 1000, "the graph holds the relative imports")
    assert.deepStrictEqual(cyclesOf(graph), [])
  })

  it("the context map names only its own contexts, and no context uses another's services in a cycle", () => {
    const named = CONTEXT_MAP.flatMap((context) => [...context.uses, ...(context.models ?? [])])
    assert.deepStrictEqual(
      named.filter((name) => !isContext(name)),
      []
    )
    assert.deepStrictEqual(cyclesOf(usesGraph()), [])
  })

  it("the domain has one folder per context of the map, and each package's list of contexts follows its folders", () => {
    const names = CONTEXT_MAP.map((context) => context.name).sort()
    const folders = (root: string) => names.filter((name) => existsSync(join(ROOT, root, name, "index.ts")))
    assert.deepStrictEqual(folders("packages/domain/src"), names)
    for (const [index, root] of [
      ["packages/domain/src/index.ts", "packages/domain/src"],
      ["packages/adapters-memory/src/index.ts", "packages/adapters-memory/src"],
      ["packages/adapters-pg/src/index.ts", "packages/adapters-pg/src"],
      ["packages/adapters-http/src/api/index.ts", "packages/adapters-http/src/api"]
    ] as const) {
      assert.deepStrictEqual([...new Set(contextsListedIn(index))].sort(), folders(root), index)
    }
  })

  it("the context table of docs/architecture.md is the context map's (npm run context-map writes it)", () => {
    const doc = read("docs/architecture.md")
    assert.strictEqual(doc, withContextTable(doc))
  })
})
