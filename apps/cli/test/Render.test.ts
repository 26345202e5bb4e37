import { assert, describe, it } from "@effect/vitest"
import type { Approval } from "@svc/sdk"
import * as Render from "../src/Render.ts"

/** A pending approval of `subjectType` whose `subject` has only the fields the CLI prints. */
const approvalOf = (id: string, subjectType: Approval["subjectType"], subject: object) =>
  ({ id, status: "pending", expiresAt: "2026-11-28T12:00:00Z", subjectType, subject }) as unknown as Approval

describe("svc approvals list", () => {
  it("prints each approval's subject from `subject`, by its subject type", () => {
    const merchant = { amount: 5_100, currency: "USD", merchant: { name: "OpenAI" }, purpose: "API tokens" }
    const lines = Render.approvals([
      approvalOf("a1", "spend_request", merchant),
      approvalOf("a2", "transfer", { amount: 900, to: { address: "addr-1" } }),
      approvalOf("a3", "checkout_intent", { ...merchant, amount: 2_500 }),
      approvalOf("a4", "crypto_payout", { amount: 15_000, currency: "USD", address: "0xabc" })
    ]).split("\n")
    assert.strictEqual(lines.length, 5)
    assert.match(lines[1] ?? "", /^a1 .*spend USD 51\.00 at OpenAI: API tokens$/u)
    assert.match(lines[2] ?? "", /^a2 .*transfer USD 9\.00 to addr-1$/u)
    assert.match(lines[3] ?? "", /^a3 .*checkout USD 25\.00 at OpenAI: API tokens$/u)
    assert.match(lines[4] ?? "", /^a4 .*payout USD 150\.00 to 0xabc$/u)
  })
})
