import { readFile } from "node:fs/promises"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { CHANGELOG, changelogMarkdown } from "@svc/adapters-http/api"
import { makeClient } from "@svc/sdk"
import { Effect, Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { inProcessApp, testConfig } from "../support/InProcessApp.ts"

const app = inProcessApp()
afterAll(() => app.dispose())

describe("the changelog", () => {
  it("GET /changelog answers the entries, public and newest first", async () => {
    const answer = await app.call("GET", "/changelog")
    assert.strictEqual(answer.status, 200)
    assert.deepStrictEqual(answer.body.entries, CHANGELOG)
    const dates: Array<string> = answer.body.entries.map((entry: { date: string }) => entry.date)
    assert.deepStrictEqual(dates, [...dates].sort().reverse())
    assert.strictEqual(new Set(answer.body.entries.map((entry: { id: string }) => entry.id)).size, dates.length)
  })

  it("the newest breaking entry is the refusal of OAuth tokens on /v1, with what to do", async () => {
    const entries: ReadonlyArray<{ id: string; breaking: boolean }> = (await app.call("GET", "/changelog")).body.entries
    assert.strictEqual(entries[0]?.id, "approvals-name-the-decider", "the newest entry")
    const newest = entries.find((entry) => entry.breaking) as (typeof entries)[number] & Record<string, string>
    assert.strictEqual(newest.id, "oauth-tokens-refused-on-v1")
    assert.strictEqual(newest.date, "2026-11-28")
    assert.isTrue(newest.breaking)
    assert.include(newest.action, "team API key")
  })

  it("CHANGELOG.md says what the served JSON says (regenerate it with `npm run changelog`)", async () => {
    const served = (await app.call("GET", "/changelog")).body.entries
    const file = await readFile(new URL("../../../CHANGELOG.md", import.meta.url), "utf8")
    assert.strictEqual(file, changelogMarkdown(served))
    for (const entry of served) assert.include(file, `## ${entry.date}: ${entry.title}`)
  })

  it("the reference page links the changelog", async () => {
    const document = (await app.call("GET", "/openapi.json")).body
    assert.include(document.info.description, "(/changelog)")
    assert.deepStrictEqual(document.paths["/changelog"].get.security, [], "public: no credential")
  })

  it("the SDK reads it as typed entries", async () => {
    const log = await Effect.runPromise(
      Effect.gen(function* () {
        const client = yield* makeClient({ baseUrl: testConfig.publicBaseUrl, token: "unused" })
        return yield* client.changelog.list()
      }).pipe(
        Effect.provide(FetchHttpClient.layer),
        Effect.provide(Layer.succeed(FetchHttpClient.Fetch, (input, init) => app.handler(new Request(input, init))))
      )
    )
    assert.deepStrictEqual(log.entries, CHANGELOG)
  })
})
