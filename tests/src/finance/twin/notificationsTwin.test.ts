import { assert } from "@effect/vitest"
import { Notifications, notifyAllPending } from "@svc/domain"
import { Effect } from "effect"
import { assertInvalid, setUpKeyedTeam, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { twinSuite } from "./TwinSuite.ts"

const spendBody = (amount: number) => ({
  amount,
  currency: "USD",
  merchant: { name: "OpenAI", category: "software" },
  purpose: "API tokens for the nightly run"
})

twinSuite("notifications", (it) => {
  it.effect("the twin's list (repeated status, pageSize), status of one, status of all", () =>
    withAppOnPorts(async (app, context) => {
      const acme = await setUpKeyedTeam(app, { policy: { approvalThreshold: 5_000 }, funds: 50_000 })
      for (const amount of [6_000, 7_000]) {
        const held = await app.call("POST", "/v1/spend-requests", {
          token: acme.key,
          body: spendBody(amount),
          headers: { "idempotency-key": crypto.randomUUID() }
        })
        assert.strictEqual(held.body.status, "pending_approval", JSON.stringify(held.body))
      }
      await Effect.runPromise(
        notifyAllPending.pipe(Effect.provide(Notifications.layer), Effect.provide(context), Effect.asVoid)
      )

      const page = await app.call("GET", "/notifications?pageSize=1&status=unread&status=read", { token: acme.owner })
      assert.strictEqual(page.status, 200, JSON.stringify(page.body))
      assert.strictEqual(page.body.data.length, 1)
      assert.isTrue(page.body.meta.hasNextPage)
      const [newest] = page.body.data

      const read = await app.call("PATCH", `/notifications/${newest.id}/status`, {
        token: acme.owner,
        body: { status: "read" }
      })
      assert.strictEqual(read.status, 200, JSON.stringify(read.body))
      assert.strictEqual(read.body.data.status, "read")
      const onlyRead = await app.call("GET", "/notifications?status=read", { token: acme.owner })
      assert.deepStrictEqual(
        onlyRead.body.data.map((n: { id: string }) => n.id),
        [newest.id]
      )

      const archived = await app.call("POST", "/notifications/update-all-status", {
        token: acme.owner,
        body: { status: "archived" }
      })
      assert.strictEqual(archived.status, 200, JSON.stringify(archived.body))
      const unread = await app.call("GET", "/notifications?status=unread&status=read", { token: acme.owner })
      assert.deepStrictEqual(unread.body.data, [])
      assertInvalid(
        await app.call("GET", "/notifications?status=unread&status=gone", { token: acme.owner }),
        "query.status"
      )
    })
  )
})
