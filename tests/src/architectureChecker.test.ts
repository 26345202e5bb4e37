import { assert, describe, it } from "@effect/vitest"
import {
  ambientReads,
  apiEnvironmentReadsIn,
  contextOf,
  cyclesOf,
  definesService,
  environmentReads,
  importGraphOf,
  importsOf,
  runtimeGraphOf,
  settingsReadsIn,
  sqlErrorReads,
  violationsIn
} from "./support/ArchitectureRules.ts"

describe("architecture", () => {
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

    it("finds every line of an adapter that inspects a SQL failure", () => {
      const line = "Effect.catchIf((e) => SqlError.isSqlError(e), recover)"
      assert.deepStrictEqual(sqlErrorReads(`const a = 1\n${line}`), [line])
      assert.deepStrictEqual(sqlErrorReads('orUnavailable("ledger.insert")\nconst sqlErrors = 0'), [])
    })

    it("finds every line that reads the environment, and no comment that shows one", () => {
      for (const line of [
        "const url = process.env.DATABASE_URL",
        'const size = yield* Config.Int("DB_POOL_SIZE").pipe(Config.withDefault(10))',
        'Config.schema(TrustedProxies, "TRUST_PROXY")',
        "Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv()))"
      ]) {
        assert.deepStrictEqual(environmentReads(line), [line])
      }
      const quiet = [
        " * const event = await verifyWebhook(process.env.WEBHOOK_SECRET, headers, body)",
        '// Config.String("X") was read here',
        "export const layer = (settings: Settings) => Layer.succeed(Settings, settings)",
        "Config.withDefault(fallback)"
      ].join("\n")
      assert.deepStrictEqual(environmentReads(quiet), [])
    })

    it("refuses a package module that reads the environment, and lets the apps, tests and testing/ support read it", () => {
      const read = 'const url = yield* Config.option(Config.Redacted("DATABASE_URL"))'
      assert.deepStrictEqual(settingsReadsIn("packages/adapters-pg/src/shared/Database.ts", read), [read])
      assert.deepStrictEqual(settingsReadsIn("packages/domain/src/crypto/Bad.ts", "process.env.CRYPTO_FEE_BPS"), [
        "process.env.CRYPTO_FEE_BPS"
      ])
      assert.deepStrictEqual(settingsReadsIn("packages/adapters-pg/src/testing/TestDatabase.ts", read), [])
      assert.deepStrictEqual(settingsReadsIn("packages/adapters-pg/src/shared/Database.test.ts", read), [])
      assert.deepStrictEqual(settingsReadsIn("apps/api/src/Config.ts", read), [])
      assert.deepStrictEqual(settingsReadsIn("apps/cli/src/Credentials.ts", read), [])
    })

    it("refuses an API module that reads the environment outside Config.ts and the modules of config/", () => {
      const read = 'const token = Config.option(Config.Redacted("METRICS_TOKEN"))'
      assert.deepStrictEqual(apiEnvironmentReadsIn("apps/api/src/Observability.ts", read), [read])
      assert.deepStrictEqual(apiEnvironmentReadsIn("apps/api/src/config/nested/Deeper.ts", read), [read])
      assert.deepStrictEqual(apiEnvironmentReadsIn("apps/api/src/Config.ts", read), [])
      assert.deepStrictEqual(apiEnvironmentReadsIn("apps/api/src/config/PaymentsConfig.ts", read), [])
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
      assert.deepStrictEqual(violationsIn("packages/domain/src/Good.ts", 'import { NetAddress } from "effect/net"'), [])
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

    it("refuses an import between contexts the context map does not allow, and a model-only use past the model", () => {
      const refused = violationsIn(
        "packages/domain/src/ledger/Bad.ts",
        'import { SpendRequests } from "../spend/index.ts"'
      )
      assert.deepStrictEqual(
        refused.map((v) => v.rule),
        ["the context map does not let ledger use spend (tests/src/support/ContextMap.ts)"]
      )
      assert.deepStrictEqual(
        violationsIn("packages/domain/src/spend/Ok.ts", 'import { Ledger } from "../ledger/index.ts"'),
        []
      )
      assert.strictEqual(
        violationsIn("packages/adapters-pg/src/ledger/Bad.ts", 'import { SpendPortsPg } from "../spend/index.ts"')
          .length,
        1
      )
      assert.strictEqual(
        violationsIn("packages/adapters-http/src/http/ledger/Bad.ts", 'import { A } from "../../api/spend/index.ts"')
          .length,
        1
      )
      assert.deepStrictEqual(
        violationsIn(
          "packages/adapters-http/src/http/spend/Ok.ts",
          'import { SpendApi } from "../../api/spend/index.ts"'
        ),
        []
      )
      const pastModel = violationsIn(
        "packages/domain/src/webhooks/Bad.ts",
        'import { Checkout } from "../checkout/index.ts"'
      )
      assert.deepStrictEqual(
        pastModel.map((v) => v.rule),
        ["the context map lets webhooks use only checkout's model.ts"]
      )
      assert.deepStrictEqual(
        violationsIn("packages/domain/src/webhooks/Ok.ts", 'import { CardStatus } from "../checkout/model.ts"'),
        []
      )
    })

    it("refuses a type import of another context's shapes through its index.ts instead of its model.ts", () => {
      const sources: Record<string, string> = {
        "packages/domain/src/identity/model.ts": 'export * from "./Team.ts"',
        "packages/domain/src/identity/Team.ts": 'export type Role = "owner" | "member"\nexport const roles = 1',
        "packages/domain/src/identity/index.ts": 'export * from "./model.ts"\nexport * from "./Teams.ts"'
      }
      const read = (file: string) => sources[file] ?? ""
      const through = 'import type { Role } from "../identity/index.ts"'
      assert.deepStrictEqual(
        violationsIn("packages/domain/src/access/Bad.ts", through, read).map((v) => v.rule),
        ["a type import of another context's shapes goes through its model.ts (Role)"]
      )
      assert.deepStrictEqual(
        violationsIn("packages/domain/src/access/Ok.ts", 'import type { Role } from "../identity/model.ts"', read),
        []
      )
      assert.deepStrictEqual(
        violationsIn("packages/domain/src/access/Ok.ts", 'import type { TeamsRepo } from "../identity/index.ts"', read),
        []
      )
      assert.deepStrictEqual(
        violationsIn("packages/domain/src/identity/Ok.ts", 'import type { Role } from "./index.ts"', read),
        []
      )
    })

    it("finds an import cycle among files, type imports and re-exports included, and none in a graph without one", () => {
      const sources: Record<string, string> = {
        "packages/domain/src/a/A.ts": 'import { b } from "./B.ts"',
        "packages/domain/src/a/B.ts": 'export * from "../c/index.ts"',
        "packages/domain/src/c/index.ts": 'import type { A } from "../a/A.ts"',
        "packages/domain/src/c/D.ts": 'import { a } from "../a/A.ts"\nimport { e } from "effect"'
      }
      const read = (file: string) => sources[file] ?? ""
      assert.deepStrictEqual(cyclesOf(importGraphOf(Object.keys(sources), read)), [
        ["packages/domain/src/a/A.ts", "packages/domain/src/a/B.ts", "packages/domain/src/c/index.ts"]
      ])
      sources["packages/domain/src/c/index.ts"] = "export const c = 1"
      assert.deepStrictEqual(cyclesOf(importGraphOf(Object.keys(sources), read)), [])
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

    it("reports a dashboard module that imports anything but preact, the SDK and the domain's models", () => {
      for (const specifier of ["@svc/domain", "@svc/adapters-http", "node:fs", "effect", "vite"]) {
        assert.strictEqual(
          violationsIn("apps/dashboard/src/Bad.tsx", `import { x } from "${specifier}"`).length,
          1,
          specifier
        )
      }
      for (const specifier of ["preact", "preact/hooks", "@svc/sdk", "@svc/domain/model", "./ui/router.ts"]) {
        assert.deepStrictEqual(violationsIn("apps/dashboard/src/Ok.tsx", `import { x } from "${specifier}"`), [])
      }
      assert.deepStrictEqual(violationsIn("apps/dashboard/vite.config.ts", 'import { defineConfig } from "vite"'), [])
      assert.deepStrictEqual(violationsIn("apps/dashboard/test/Ok.test.ts", 'import { it } from "@effect/vitest"'), [])
      assert.strictEqual(violationsIn("apps/dashboard/src/Bad.tsx", 'import { it } from "@effect/vitest"').length, 1)
    })
  })
})
