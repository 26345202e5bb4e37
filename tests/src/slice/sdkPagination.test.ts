import { assert, describe, it } from "@effect/vitest"
import { createClient, makeClient, paginate, paginateStream } from "@svc/sdk"
import { Effect, Stream } from "effect"
import { FetchHttpClient } from "effect/http"
import { sessionToken } from "../support/InProcessApp.ts"
import { databaseName, sdkServerOnDatabase } from "../support/SdkServer.ts"

const app = sdkServerOnDatabase()
const COUNT = 250

/** True when `ids` of `items` follow the list's order: newest first, the larger id first on a tie. */
const inListOrder = (items: ReadonlyArray<{ readonly id: string; readonly createdAt: string }>) =>
  items.every((item, i) => {
    const next = items[i + 1]
    if (next === undefined) return true
    return item.createdAt > next.createdAt || (item.createdAt === next.createdAt && item.id > next.id)
  })

describe(`walking a cursor list of ${COUNT} customers with the SDK (${databaseName})`, () => {
  it("paginate and paginateStream visit every item once, in the list's order", async () => {
    const owner = await sessionToken()
    assert.strictEqual((await app.call("POST", "/teams", { token: owner, body: { name: "Acme" } })).status, 201)
    const created: Array<string> = []
    for (let batch = 0; batch < COUNT / 25; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          app.call("POST", "/customers", { token: owner, body: { name: `Customer ${batch * 25 + i}` } })
        )
      )
      for (const answer of answers) {
        assert.strictEqual(answer.status, 201)
        created.push(answer.body.id)
      }
    }

    const sdk = createClient({ baseUrl: app.baseUrl(), token: owner })
    let pages = 0
    const list: typeof sdk.customers.list = (request) => {
      pages += 1
      return sdk.customers.list(request)
    }
    const walked: Array<{ id: string; createdAt: string }> = []
    for await (const customer of paginate(list, { query: { limit: 20 } })) walked.push(customer)
    assert.strictEqual(pages, 13)
    assert.lengthOf(walked, COUNT)
    assert.strictEqual(new Set(walked.map((c) => c.id)).size, COUNT, "no duplicates")
    assert.sameMembers(
      walked.map((c) => c.id),
      created
    )
    assert.isTrue(inListOrder(walked))

    const client = await Effect.runPromise(
      makeClient({ baseUrl: app.baseUrl(), token: owner }).pipe(Effect.provide(FetchHttpClient.layer))
    )
    const streamed = await Effect.runPromise(
      Stream.runCollect(paginateStream(client.customers.list, { query: { limit: 20 } }))
    )
    assert.deepStrictEqual(
      Array.from(streamed, (c) => c.id),
      walked.map((c) => c.id),
      "the Effect face walks the same items in the same order"
    )
  }, 120_000)
})
