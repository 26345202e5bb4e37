import { assert, describe, it } from "@effect/vitest"
import { acmeApp, spendBody } from "../spend/SpendHttpSetup.ts"
import { sessionToken } from "../support/InProcessApp.ts"

const { app, acme, create } = acmeApp()

const hugePolicy = {
  allowedCategories: Array.from({ length: 2_000 }, (_, i) => `category-${i}`),
  allowedMerchants: Array.from({ length: 100 }, (_, i) => `${"m".repeat(190)}${i}`),
  blockedMerchants: Array.from({ length: 100 }, (_, i) => `${"b".repeat(190)}${i}`)
}

describe("policy versions and the audit log over HTTP", () => {
  it("a key's policy versions: v1 at creation, one per change, the team's listed with them; decisions name theirs", async () => {
    const before = await create(acme.testKey, spendBody(6_000))
    assert.strictEqual(before.body.status, "pending_approval")
    assert.deepStrictEqual(before.body.decision.policyVersions, { spendingKey: 1, team: null })

    const patched = await app.call("PATCH", `/treasury/spending-keys/${acme.keyId}`, {
      token: acme.owner,
      body: { policy: { approvalThreshold: 10_000, perRequestLimit: 50_000 } }
    })
    assert.strictEqual(patched.status, 200)
    assert.strictEqual(patched.body.policyVersion, 2)
    const team = await app.call("PUT", "/treasury/spend-policy", {
      token: acme.owner,
      body: { policy: { dailyBudget: 15_000 } }
    })
    assert.strictEqual(team.status, 200)

    const after = await create(acme.testKey, spendBody(6_000))
    assert.strictEqual(after.body.status, "approved")
    assert.deepStrictEqual(after.body.decision.policyVersions, { spendingKey: 2, team: 1 })

    const listed = await app.call("GET", `/treasury/spending-keys/${acme.keyId}/policy-versions?limit=10`, {
      token: acme.owner
    })
    assert.strictEqual(listed.status, 200)
    const versions = listed.body.data as ReadonlyArray<Record<string, unknown>>
    assert.deepStrictEqual(versions.map((v) => [v.object, v.subject, v.version]).toSorted(), [
      ["policy_version", "spending_key", 1],
      ["policy_version", "spending_key", 2],
      ["policy_version", "team", 1]
    ])
    const first = versions.find((v) => v.subject === "spending_key" && v.version === 1)
    assert.deepStrictEqual(first?.policy, { approvalThreshold: 5_000, perRequestLimit: 50_000 })
    assert.isString(versions.find((v) => v.subject === "team")?.createdBy)

    const missing = await app.call("GET", `/treasury/spending-keys/${crypto.randomUUID()}/policy-versions`, {
      token: acme.owner
    })
    assert.strictEqual(missing.status, 404)
  })

  it("a policy over 64 KiB is a 400 naming the policy, and nothing changes", async () => {
    const patched = await app.call("PATCH", `/treasury/spending-keys/${acme.keyId}`, {
      token: acme.owner,
      body: { policy: hugePolicy }
    })
    assert.strictEqual(patched.status, 400)
    assert.strictEqual(patched.body.details[0].path, "policy")
    const team = await app.call("PUT", "/treasury/spend-policy", { token: acme.owner, body: { policy: hugePolicy } })
    assert.strictEqual(team.status, 400)
    assert.strictEqual(team.body.details[0].path, "policy")
    const created = await app.call("POST", "/treasury/spending-keys", {
      token: acme.owner,
      body: { name: "big", mode: "test", policy: hugePolicy }
    })
    assert.strictEqual(created.status, 400)
    const keys = await app.call("GET", "/treasury/spending-keys?limit=50", { token: acme.owner })
    assert.isFalse((keys.body.data as ReadonlyArray<{ name: string }>).some((k) => k.name === "big"))
  })

  it("the audit log lists newest first through its cursor and verifies; only owners and admins read it", async () => {
    await create(acme.testKey, spendBody(100))
    const all: Array<Record<string, unknown>> = []
    let cursor: string | null = null
    do {
      const page = await app.call(
        "GET",
        `/treasury/audit?limit=4${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
        { token: acme.owner }
      )
      assert.strictEqual(page.status, 200)
      all.push(...page.body.data)
      cursor = page.body.meta.hasNextPage ? page.body.meta.cursor : null
    } while (cursor !== null)
    const seqs = all.map((e) => e.seq as number)
    assert.deepStrictEqual(
      seqs,
      Array.from({ length: seqs.length }, (_, i) => seqs.length - i)
    )
    const types = new Set(all.map((e) => e.type))
    for (const type of [
      "spending_key.created",
      "policy_version.created",
      "spend_request.created",
      "spend_request.approved"
    ]) {
      assert.isTrue(types.has(type), type)
    }
    assert.strictEqual(all.at(-1)?.prevHash, "0".repeat(64))

    const verified = await app.call("GET", "/treasury/audit/verify", { token: acme.owner })
    assert.strictEqual(verified.status, 200)
    assert.deepStrictEqual(verified.body, {
      object: "audit_verification",
      valid: true,
      checked: all.length,
      head: { seq: all.length, hash: all[0]?.hash },
      firstBroken: null
    })

    const stranger = await sessionToken({ email: "stranger@acme.test" })
    const refused = await app.call("GET", "/treasury/audit", { token: stranger })
    assert.strictEqual(refused.status, 403)
    const anonymous = await app.call("GET", "/treasury/audit/verify")
    assert.strictEqual(anonymous.status, 401)
  })
})
