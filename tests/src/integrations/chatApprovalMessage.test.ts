import { assert, describe, it } from "@effect/vitest"
import {
  type Approval,
  type ChatApprovalState,
  chatApprovalContent,
  chatApprovalIdOf,
  chatApprovalRequestOf,
  chatEscape,
  type DomainEvent,
  majorUnits
} from "@svc/domain"
import { Option } from "effect"

const APPROVAL_ID = "0190f5b2-8f3c-7b61-9d7e-3c2f1a0b9e01"
const eventOf = (type: string, data: Record<string, unknown>): DomainEvent => ({
  id: crypto.randomUUID(),
  teamId: crypto.randomUUID() as DomainEvent["teamId"],
  mode: "live",
  type,
  data,
  createdAt: "2026-11-27T08:00:00.000Z"
})
const approvalView = { id: APPROVAL_ID, status: "pending", expiresAt: "2026-11-28T08:00:00.000Z" }
const decision = {
  outcome: "pending_approval",
  reasons: [{ code: "approval_threshold", message: "over the threshold" }]
}

const pending: ChatApprovalState = {
  approval: {
    status: "pending",
    decidedAt: null,
    approvers: { required: 1, roles: ["owner", "admin"], requireOwner: false },
    decisions: []
  },
  decidedByName: null
}

describe("approval messages", () => {
  it("amounts are written in major units of their currency", () => {
    assert.strictEqual(majorUnits(6_000, "USD"), "60.00 USD")
    assert.strictEqual(majorUnits(123_456_789, "USD"), "1,234,567.89 USD")
    assert.strictEqual(majorUnits(5, "EUR"), "0.05 EUR")
    assert.strictEqual(majorUnits(1_500, "JPY"), "1,500 JPY")
    assert.strictEqual(majorUnits(1_234, "KWD"), "1.234 KWD")
    assert.strictEqual(majorUnits(-250, "USD"), "-2.50 USD")
  })

  it("text from agents cannot mention the channel, plant links or format the message", () => {
    assert.strictEqual(
      chatEscape("<!channel> <https://evil|click> *bold* & _it_"),
      "&lt;!channel&gt; &lt;https://evil|click&gt; \\*bold\\* &amp; \\_it\\_"
    )
    const content = chatApprovalContent(
      {
        approvalId: APPROVAL_ID as Approval["id"],
        summary: {
          subjectType: "spend_request",
          subjectId: "s1",
          requester: "<@U123>",
          amountMinor: 6_000,
          currency: "USD",
          merchant: "<!here>",
          purpose: "<!everyone>",
          reasons: ["<#C1>"],
          expiresAt: "2026-11-28T08:00:00.000Z"
        }
      },
      pending
    )
    const rendered = JSON.stringify(content)
    for (const mention of ["<!here>", "<!everyone>", "<@U123>", "<#C1>"]) assert.notInclude(rendered, mention)
  })

  it("reads the request of each governed subject type from its approval_required event", () => {
    const spend = chatApprovalRequestOf(
      eventOf("spend_request.approval_required", {
        id: "sr1",
        amount: 6_000,
        currency: "USD",
        merchant: { name: "OpenAI", category: null, url: null },
        purpose: "tokens",
        decision,
        approval: approvalView
      })
    )
    assert.deepStrictEqual(Option.getOrThrow(spend).summary.merchant, "OpenAI")
    const transfer = Option.getOrThrow(
      chatApprovalRequestOf(
        eventOf("transfer.approval_required", {
          id: "t1",
          amount: 2_500,
          currency: "USD",
          memo: "rent",
          to: { address: "acme@pay", paymentCode: null },
          decision,
          approval: approvalView
        })
      )
    )
    assert.deepInclude(transfer.summary, {
      subjectType: "transfer",
      merchant: "acme@pay",
      purpose: "rent",
      amountMinor: 2_500
    })
    const payout = Option.getOrThrow(
      chatApprovalRequestOf(
        eventOf("crypto_payout.approval_required", {
          id: "p1",
          amount: 10_000,
          currency: "USD",
          asset: "USDC",
          network: "base",
          address: "0xabc",
          decision,
          approval: approvalView
        })
      )
    )
    assert.deepInclude(payout.summary, { subjectType: "crypto_payout", merchant: "USDC on base to 0xabc", purpose: "" })
    assert.deepStrictEqual(payout.summary.reasons, ["over the threshold"])
    const intent = Option.getOrThrow(
      chatApprovalRequestOf(
        eventOf("checkout_intent.approval_required", {
          id: "c1",
          amount: 900,
          currency: "EUR",
          merchant: { name: "Shop", url: null, mcc: null, country: null },
          purpose: "boots",
          decision,
          approval: approvalView
        })
      )
    )
    assert.deepInclude(intent.summary, { subjectType: "checkout_intent", currency: "EUR", merchant: "Shop" })
    assert.isTrue(Option.isNone(chatApprovalRequestOf(eventOf("spend_request.approved", { id: "x" }))))
    assert.isTrue(Option.isNone(chatApprovalRequestOf(eventOf("spend_request.approval_required", { id: "x" }))))
  })

  it("finds the approval a change concerns, in an approval's event or in its subject's", () => {
    assert.deepStrictEqual(
      chatApprovalIdOf(eventOf("approval.step_recorded", { object: "approval", id: APPROVAL_ID })),
      Option.some(APPROVAL_ID)
    )
    assert.deepStrictEqual(
      chatApprovalIdOf(
        eventOf("transfer.expired", { id: "t1", amount: 1, currency: "USD", decision, approval: approvalView })
      ),
      Option.some(APPROVAL_ID)
    )
    assert.isTrue(
      Option.isNone(
        chatApprovalIdOf(
          eventOf("transfer.expired", { id: "t1", amount: 1, currency: "USD", decision: null, approval: null })
        )
      )
    )
  })
})
