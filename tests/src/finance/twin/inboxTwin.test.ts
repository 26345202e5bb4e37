import { assert } from "@effect/vitest"
import { type InboxItem, InboxItemsRepo, type TeamId } from "@svc/domain"
import { Effect } from "effect"
import { assertInvalid, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { financeTeam } from "../FinanceHttpSetup.ts"
import { twinSuite } from "./TwinSuite.ts"

/** An item as the inbox stores a received e-mail (no attachments), newer with each `minute`. */
const itemOf = (teamId: string, minute: number): InboxItem => ({
  id: crypto.randomUUID(),
  teamId: teamId as TeamId,
  messageId: `m-${crypto.randomUUID()}`,
  sender: "billing@vendor.example",
  recipient: `inbox+${teamId}@inbox.svc.test`,
  subject: `Invoice ${minute}`,
  displayName: null,
  textBody: "",
  htmlBody: "",
  attachments: [],
  status: "pending",
  transactionId: null,
  createdAt: `2026-03-01T10:0${minute}:00.000Z`,
  updatedAt: `2026-03-01T10:0${minute}:00.000Z`
})

twinSuite("inbox", (it) => {
  it.effect("the twin's list with pageSize, read, rename with displayName, delete", () =>
    withAppOnPorts(async (app, context) => {
      const acme = await financeTeam(app)
      const [older, newer] = [itemOf(acme.id, 1), itemOf(acme.id, 2)]
      await Effect.runPromise(
        Effect.gen(function* () {
          const repo = yield* InboxItemsRepo
          for (const item of [older, newer]) assert.isTrue(yield* repo.insert(item))
        }).pipe(Effect.provide(context))
      )

      const page = await app.call("GET", "/inbox?pageSize=1", { token: acme.owner })
      assert.strictEqual(page.status, 200, JSON.stringify(page.body))
      assert.deepStrictEqual(
        page.body.data.map((i: { id: string }) => i.id),
        [newer.id]
      )
      assert.isTrue(page.body.meta.hasNextPage)
      assert.isNull(page.body.data[0].displayName)

      const renamed = await app.call("PATCH", `/inbox/${older.id}`, {
        token: acme.owner,
        body: { displayName: "Vendor invoice March" }
      })
      assert.strictEqual(renamed.status, 200, JSON.stringify(renamed.body))
      assert.strictEqual(renamed.body.displayName, "Vendor invoice March")
      assert.strictEqual(renamed.body.status, "pending", "a rename alone leaves the status")
      const read = await app.call("GET", `/inbox/${older.id}`, { token: acme.owner })
      assert.strictEqual(read.status, 200)
      assert.strictEqual(read.body.displayName, "Vendor invoice March")
      const cleared = await app.call("PATCH", `/inbox/${older.id}`, { token: acme.owner, body: { displayName: null } })
      assert.isNull(cleared.body.displayName)
      assertInvalid(
        await app.call("PATCH", `/inbox/${older.id}`, { token: acme.owner, body: { displayName: "" } }),
        "displayName"
      )
      assertInvalid(
        await app.call("PATCH", `/inbox/${older.id}`, { token: acme.owner, body: { amount: 12.5 } }),
        "amount"
      )

      assert.strictEqual((await app.call("DELETE", `/inbox/${newer.id}`, { token: acme.owner })).status, 200)
      assert.strictEqual((await app.call("GET", `/inbox/${newer.id}`, { token: acme.owner })).status, 404)
    })
  )
})
