import { assert, describe, it } from "@effect/vitest"
import { createClient } from "@svc/sdk"
import { acmeApp, spendBody } from "../spend/SpendHttpSetup.ts"
import { failureOf, loopbackServer } from "../support/LoopbackServer.ts"

const { app, acme, create } = acmeApp()

const server = loopbackServer(app.handler)

describe("the SDK's policy-version and audit routes", () => {
  it("lists a key's policy versions, pages the audit log and verifies it", async () => {
    const decided = await create(acme.testKey, spendBody(100))
    assert.strictEqual(decided.status, 201)
    const owner = createClient({ baseUrl: server.baseUrl(), token: acme.owner })

    const versions = await owner.agentKeys.listPolicyVersions({ params: { id: acme.keyId }, query: {} })
    assert.deepStrictEqual(
      versions.data.map((v) => [v.subject, v.version, v.spendingKeyId]),
      [["spending_key", 1, acme.keyId]]
    )
    const first = await owner.audit.listAuditEntries({ query: { limit: 1 } })
    assert.lengthOf(first.data, 1)
    assert.isTrue(first.meta.hasNextPage)
    const rest = await owner.audit.listAuditEntries({ query: { cursor: first.meta.cursor ?? "", limit: 100 } })
    const seqs = [...first.data, ...rest.data].map((e) => e.seq)
    assert.deepStrictEqual(
      seqs,
      Array.from({ length: seqs.length }, (_, i) => seqs.length - i)
    )
    const verified = await owner.audit.verifyAudit()
    assert.isTrue(verified.valid)
    assert.strictEqual(verified.checked, seqs.length)

    const agent = createClient({ baseUrl: server.baseUrl(), token: acme.testKey })
    const refused = await failureOf(agent.audit.verifyAudit())
    assert.strictEqual(refused.status, 401)
  })
})
