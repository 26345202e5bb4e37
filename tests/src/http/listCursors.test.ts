import { assert, describe, it } from "@effect/vitest"
import { toBase64Url, utf8 } from "@svc/domain"
import { acmeApp, spendBody } from "../spend/SpendHttpSetup.ts"

const { app, acme, create } = acmeApp()

/** A cursor a client could build by hand: the old unsigned encoding of a position. */
const forged = toBase64Url(utf8(JSON.stringify({ createdAt: "x", id: "y" })))

const lists = () => [
  { path: "/v1/spend-requests", token: acme.testKey },
  { path: "/treasury/approvals", token: acme.owner },
  { path: "/treasury/ledger", token: acme.owner },
  { path: "/treasury/activity", token: acme.owner },
  { path: "/api-keys", token: acme.owner },
  { path: "/treasury/webhook-endpoints", token: acme.owner },
  { path: `/treasury/webhook-endpoints/${crypto.randomUUID()}/deliveries`, token: acme.owner }
]

const cursorOf = async (path: string, token: string) =>
  (await app.call("GET", `${path}?limit=1`, { token })).body.meta.cursor as string

describe("list cursors", () => {
  it("answers 400 invalid_cursor to a forged cursor on every cursor list", async () => {
    for (const { path, token } of lists()) {
      const answer = await app.call("GET", `${path}?cursor=${forged}`, { token })
      assert.strictEqual(answer.status, 400, path)
      assert.strictEqual(answer.body.error, "invalid_cursor", path)
    }
  })

  it("refuses a real cursor with one byte changed, or sent to another list", async () => {
    for (const amount of [100, 200, 300])
      assert.strictEqual((await create(acme.testKey, spendBody(amount))).status, 201)
    const cursor = await cursorOf("/v1/spend-requests", acme.testKey)
    const next = await app.call("GET", `/v1/spend-requests?limit=1&cursor=${cursor}`, { token: acme.testKey })
    assert.strictEqual(next.status, 200)
    assert.isTrue(next.body.meta.hasPreviousPage)
    const flipped = `${cursor.slice(0, 5)}${cursor[5] === "A" ? "B" : "A"}${cursor.slice(6)}`
    const tampered = await app.call("GET", `/v1/spend-requests?cursor=${flipped}`, { token: acme.testKey })
    assert.strictEqual(tampered.body.error, "invalid_cursor")
    const ledgerCursor = await cursorOf("/treasury/ledger", acme.owner)
    const moved = await app.call("GET", `/v1/spend-requests?cursor=${ledgerCursor}`, { token: acme.testKey })
    assert.strictEqual(moved.body.error, "invalid_cursor")
    const activityCursor = await cursorOf("/treasury/activity", acme.owner)
    const intoLedger = await app.call("GET", `/treasury/ledger?cursor=${activityCursor}`, { token: acme.owner })
    assert.strictEqual(intoLedger.body.error, "invalid_cursor")
    const otherMode = await app.call("GET", `/v1/spend-requests?cursor=${cursor}`, { token: acme.liveKey })
    assert.strictEqual(otherMode.body.error, "invalid_cursor")
  })
})
