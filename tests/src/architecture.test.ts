import { readFileSync } from "node:fs"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import {
  ambientReads,
  definesService,
  environmentReads,
  importsOf,
  ROOT,
  repositoryFiles,
  runtimeGraphOf,
  sqlErrorReads,
  variablesNamed,
  violationsIn
} from "./support/ArchitectureRules.ts"

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

  it("the API reads its environment in one module, Config.ts, which names each variable once", () => {
    const api = repositoryFiles().filter((f) => f.startsWith("apps/api/src/"))
    assert.include(api, "apps/api/src/Config.ts", "the scan finds the configuration module")
    const found = api
      .filter((f) => f !== "apps/api/src/Config.ts")
      .flatMap((f) => environmentReads(readFileSync(join(ROOT, f), "utf8")).map((line) => `${f}: ${line.trim()}`))
    assert.deepStrictEqual(found, [])
    const named = variablesNamed(readFileSync(join(ROOT, "apps/api/src/Config.ts"), "utf8"))
    assert.isAbove(named.length, 40, "the scan finds the variables")
    assert.deepStrictEqual(
      named.filter((name, index) => named.indexOf(name) !== index),
      []
    )
  })
})
