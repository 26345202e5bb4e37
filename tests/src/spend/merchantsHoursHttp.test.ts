import { assert, describe, it } from "@effect/vitest"
import { acmeApp, spendBody } from "./SpendHttpSetup.ts"

const { app, acme, create } = acmeApp()

const officeHours = { timezone: "Europe/Paris", days: ["mon", "tue", "wed", "thu", "fri"], from: "09:00", to: "18:00" }

const issueKey = async (policy: unknown) => {
  const key = await app.call("POST", "/treasury/spending-keys", {
    token: acme.owner,
    body: { name: "reviewed", mode: "test", policy }
  })
  return key
}

describe("new-merchant review and allowed hours over HTTP", () => {
  it("stores the policy fields as given and answers them back", async () => {
    const policy = { reviewNewMerchants: true, allowedHours: officeHours, outsideHours: "approval" }
    const key = await issueKey(policy)
    assert.strictEqual(key.status, 201)
    assert.deepStrictEqual(key.body.policy, policy)
    const team = await app.call("PUT", "/treasury/spend-policy", { token: acme.owner, body: { policy } })
    assert.strictEqual(team.status, 200)
    assert.deepStrictEqual((await app.call("GET", "/treasury/spend-policy", { token: acme.owner })).body.policy, policy)
    await app.call("PUT", "/treasury/spend-policy", { token: acme.owner, body: { policy: {} } })
  })

  it("answers 400 naming the field for a bad time zone, day, time, window or outsideHours", async () => {
    const cases: Array<[unknown, string]> = [
      [{ allowedHours: { ...officeHours, timezone: "Mars/Base" } }, "policy.allowedHours.timezone"],
      [{ allowedHours: { ...officeHours, timezone: "+02:00" } }, "policy.allowedHours.timezone"],
      [{ allowedHours: { ...officeHours, days: [] } }, "policy.allowedHours.days"],
      [{ allowedHours: { ...officeHours, days: ["funday"] } }, "policy.allowedHours.days.0"],
      [{ allowedHours: { ...officeHours, from: "9am" } }, "policy.allowedHours.from"],
      [{ allowedHours: { ...officeHours, to: "25:00" } }, "policy.allowedHours.to"],
      [{ allowedHours: { ...officeHours, from: "10:00", to: "10:00" } }, "policy.allowedHours"],
      [{ outsideHours: "sometimes" }, "policy.outsideHours"],
      [{ reviewNewMerchants: "yes" }, "policy.reviewNewMerchants"]
    ]
    for (const [policy, path] of cases) {
      for (const answer of [
        await issueKey(policy),
        await app.call("PUT", "/treasury/spend-policy", { token: acme.owner, body: { policy } })
      ]) {
        assert.strictEqual(answer.status, 400, JSON.stringify(policy))
        assert.strictEqual(answer.body.error, "validation_failed")
        assert.deepStrictEqual(
          [...new Set(answer.body.details.map((d: { path: string }) => d.path))],
          [path],
          JSON.stringify(answer.body.details)
        )
      }
    }
    assert.deepStrictEqual((await app.call("GET", "/treasury/spend-policy", { token: acme.owner })).body.policy, {})
  })

  it("sends the first request to a new merchant to approval with who must approve; approved, the merchant is known", async () => {
    const key = await issueKey({ reviewNewMerchants: true })
    const secret = key.body.secret as string
    await app.call("POST", "/v1/test-helpers/deposits", { token: secret, body: { amount: 1_000, currency: "USD" } })
    const body = spendBody(10, { merchant: { name: "Tiny  Vendor", category: "software" } })
    const first = (await create(secret, body)).body
    assert.strictEqual(first.status, "pending_approval")
    assert.deepStrictEqual(first.decision.reasons, [
      {
        code: "new_merchant",
        message: 'the team has never paid merchant "Tiny  Vendor"; its first request needs approval',
        approvers: { required: 1, roles: ["owner", "admin"], requireOwner: false }
      }
    ])
    const approved = await app.call("POST", `/treasury/approvals/${first.approval.id}/approve`, {
      token: acme.owner,
      body: {}
    })
    assert.strictEqual(approved.status, 200)
    const again = (await create(secret, spendBody(10, { merchant: { name: "tiny vendor" } }))).body
    assert.strictEqual(again.status, "approved")
  })
})
