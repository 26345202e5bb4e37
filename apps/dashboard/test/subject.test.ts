import { assert, describe, it } from "@effect/vitest"
import type { Approval } from "@svc/sdk"
import { kindLabel, subjectOf } from "../src/approvals/subject.ts"

/** A pending approval of `subjectType` whose `subject` has only the fields the inbox reads. */
const approvalOf = (subjectType: Approval["subjectType"], subject: object) =>
  ({ id: "a1", object: "approval", status: "pending", subjectType, subject }) as unknown as Approval

const overThreshold = { code: "approval_threshold", message: "over the threshold" }
const merchantSubject = {
  amount: 4_200,
  currency: "USD",
  merchant: { name: "Acme Cloud" },
  purpose: "GPU hours",
  spendingKeyId: "k1",
  mode: "test",
  decision: { reasons: [overThreshold] }
}

describe("an approval's subject in the inbox", () => {
  it("reads a spend request and a checkout intent from `subject`: mode, merchant, purpose, key and reasons", () => {
    for (const [subjectType, kind] of [
      ["spend_request", "Spend request"],
      ["checkout_intent", "Checkout"]
    ] as const) {
      const approval = approvalOf(subjectType, merchantSubject)
      assert.strictEqual(kindLabel(approval), kind)
      assert.deepStrictEqual(subjectOf(approval), {
        kind,
        mode: "test",
        amount: 4_200,
        currency: "USD",
        counterparty: "Acme Cloud",
        purpose: "GPU hours",
        keyId: "k1",
        reasons: [overThreshold]
      })
    }
  })

  it("reads a transfer: its payment code before its address, its memo, no key, reasons only when decided", () => {
    const transfer = {
      mode: "live",
      amount: 900,
      currency: "USD",
      to: { address: "addr-1", paymentCode: "PAY-1" },
      memo: "rent"
    }
    assert.deepStrictEqual(subjectOf(approvalOf("transfer", { ...transfer, decision: { reasons: [overThreshold] } })), {
      kind: "Transfer",
      mode: "live",
      amount: 900,
      currency: "USD",
      counterparty: "PAY-1",
      purpose: "rent",
      keyId: null,
      reasons: [overThreshold]
    })
    assert.deepStrictEqual(
      subjectOf(approvalOf("transfer", { ...transfer, to: { address: "addr-1", paymentCode: null }, memo: null })),
      {
        kind: "Transfer",
        mode: "live",
        amount: 900,
        currency: "USD",
        counterparty: "addr-1",
        purpose: "",
        keyId: null,
        reasons: []
      }
    )
  })

  it("reads a crypto payout: its address, asset and network as the counterparty", () => {
    const payout = {
      amount: 15_000,
      currency: "USD",
      address: "0xabc",
      asset: "USDC",
      network: "base",
      decision: { reasons: [overThreshold] }
    }
    assert.deepStrictEqual(subjectOf(approvalOf("crypto_payout", payout)), {
      kind: "Crypto payout",
      mode: null,
      amount: 15_000,
      currency: "USD",
      counterparty: "0xabc (USDC on base)",
      purpose: "",
      keyId: null,
      reasons: [overThreshold]
    })
  })
})
