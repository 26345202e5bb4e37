import { assert, describe, it } from "@effect/vitest"
import {
  type AccountId,
  BankConnectionChanged,
  CardAuthorizationAdvised,
  CardStatusReported,
  CardTransactionCleared,
  CardTransactionRefunded,
  DepositReceived,
  InboxEmailReceived,
  InvoicePaymentSucceeded,
  KycDecisionReceived,
  PlanChanged,
  SubscriptionEnded,
  type TeamId
} from "@svc/domain"
import { Result } from "effect"
import type { ProviderEvent } from "../../../src/inbound/mapping/EventMapping.ts"
import { commandOf, Ignored } from "../../../src/inbound/mapping/index.ts"

const TEAM = "0190f3a1-2b3c-7d4e-8f90-123456789abc" as TeamId
const ACCOUNT = "0190f3a1-2b3c-7d4e-8f90-000000000001" as AccountId
const ENTITY = "0190f3a1-2b3c-7d4e-8f90-000000000002"

const event = (endpoint: string, type: string, data: unknown): ProviderEvent => ({
  endpoint,
  providerEventId: "evt_1",
  type,
  payload: { id: "evt_1", type, data }
})

const mapped = (e: ProviderEvent) => {
  const result = commandOf(e)
  assert.isTrue(Result.isSuccess(result), `${e.endpoint} ${e.type} maps: ${JSON.stringify(result)}`)
  return Result.isSuccess(result) ? result.success : undefined
}

const deposit = (provider: string, accountId: AccountId | null = null) =>
  new DepositReceived({
    provider,
    providerEventId: "evt_1",
    teamId: TEAM,
    accountId,
    amountMinor: 2500,
    currency: "USD"
  })
const depositData = { team_id: TEAM, amount: 2500, currency: "USD" }
const kyc = (provider: string, status: KycDecisionReceived["status"]) =>
  new KycDecisionReceived({ provider, entityId: ENTITY, status })

describe("provider events map to inbound commands", () => {
  const cases: ReadonlyArray<readonly [ProviderEvent, unknown]> = [
    [event("banking-a", "deposit.received", depositData), deposit("banking-a")],
    [event("banking-b", "deposit.received", depositData), deposit("banking-b")],
    [event("banking-c", "deposit.received", { ...depositData, account_id: ACCOUNT }), deposit("banking-c", ACCOUNT)],
    [event("bank-aggregator-a", "deposit.received", depositData), deposit("bank-aggregator-a")],
    [event("bank-aggregator-b", "deposit.received", depositData), deposit("bank-aggregator-b")],
    [
      event("bank-aggregator-a", "item.disconnected", { item_id: "item_1" }),
      new BankConnectionChanged({ provider: "bank-aggregator-a", externalId: "item_1", status: "disconnected" })
    ],
    [
      event("bank-aggregator-a", "item.error", { item_id: "item_2" }),
      new BankConnectionChanged({ provider: "bank-aggregator-a", externalId: "item_2", status: "disconnected" })
    ],
    [
      event("bank-aggregator-b", "enrollment.disconnected", { enrollment_id: "enr_1" }),
      new BankConnectionChanged({ provider: "bank-aggregator-b", externalId: "enr_1", status: "disconnected" })
    ],
    [
      event("billing-a", "subscription.created", { team_id: TEAM, plan: "pro", status: "trialing" }),
      new PlanChanged({ teamId: TEAM, plan: "pro", status: "trialing" })
    ],
    [
      event("billing-a", "subscription.updated", { team_id: TEAM, plan: "team", status: "active" }),
      new PlanChanged({ teamId: TEAM, plan: "team", status: "active" })
    ],
    [
      event("billing-a", "subscription.canceled", { team_id: TEAM, plan: "pro", status: "canceled" }),
      new SubscriptionEnded({ teamId: TEAM })
    ],
    [event("billing-a", "subscription.deleted", { team_id: TEAM }), new SubscriptionEnded({ teamId: TEAM })],
    [event("kyc-a", "applicantReviewed", { entity_id: ENTITY, review_answer: "GREEN" }), kyc("kyc-a", "approved")],
    [event("kyc-a", "applicantReviewed", { entity_id: ENTITY, review_answer: "RED" }), kyc("kyc-a", "rejected")],
    [event("kyc-a", "applicantPending", { entity_id: ENTITY }), kyc("kyc-a", "pending")],
    [event("kyc-a", "applicantOnHold", { entity_id: ENTITY }), kyc("kyc-a", "in_review")],
    [event("kyc-b", "decision", { entity_id: ENTITY, status: "approved" }), kyc("kyc-b", "approved")],
    [event("kyc-b", "decision", { entity_id: ENTITY, status: "declined" }), kyc("kyc-b", "rejected")],
    [event("kyc-b", "decision", { entity_id: ENTITY, status: "resubmission_requested" }), kyc("kyc-b", "pending")],
    [event("kyc-b", "decision", { entity_id: ENTITY, status: "review" }), kyc("kyc-b", "in_review")],
    [event("kyc-c", "inquiry.created", { entity_id: ENTITY }), kyc("kyc-c", "pending")],
    [event("kyc-c", "inquiry.completed", { entity_id: ENTITY }), kyc("kyc-c", "in_review")],
    [event("kyc-c", "inquiry.approved", { entity_id: ENTITY }), kyc("kyc-c", "approved")],
    [event("kyc-c", "inquiry.declined", { entity_id: ENTITY }), kyc("kyc-c", "rejected")],
    [event("kyc-c", "inquiry.failed", { entity_id: ENTITY }), kyc("kyc-c", "rejected")],
    [event("kyc-d", "check.started", { entity_id: ENTITY }), kyc("kyc-d", "pending")],
    [event("kyc-d", "check.completed", { entity_id: ENTITY, result: "clear" }), kyc("kyc-d", "approved")],
    [event("kyc-d", "check.completed", { entity_id: ENTITY, result: "consider" }), kyc("kyc-d", "in_review")],
    [
      event("card-issuing-a", "authorization.advice", { token: "auth_1", amount: 4_500 }),
      new CardAuthorizationAdvised({ token: "auth_1", amount: 4_500 })
    ],
    [
      event("card-issuing-a", "authorization.advice", { token: "auth_1", amount: 0 }),
      new CardAuthorizationAdvised({ token: "auth_1", amount: 0 })
    ],
    [
      event("card-issuing-a", "transaction", { id: "txn_1", token: "auth_1", amount: 3_000, currency: "USD" }),
      new CardTransactionCleared({ transactionId: "txn_1", token: "auth_1", amount: 3_000, currency: "USD" })
    ],
    [
      event("card-issuing-a", "refund", { id: "rfd_1", token: "auth_1", amount: 500, currency: "USD" }),
      new CardTransactionRefunded({ refundId: "rfd_1", token: "auth_1", amount: 500, currency: "USD" })
    ],
    [
      event("card-issuing-a", "card.updated", { card_token: "card_tok_1", status: "inactive" }),
      new CardStatusReported({ cardToken: "card_tok_1", status: "inactive" })
    ],
    [
      event("card-issuing-a", "card.closed", { card_token: "card_tok_1", status: "closed" }),
      new CardStatusReported({ cardToken: "card_tok_1", status: "closed" })
    ],
    [
      event("payments", "payment_intent.succeeded", {
        object: {
          id: "pi_1",
          object: "payment_intent",
          amount: 36_238,
          currency: "usd",
          metadata: { invoice_id: ENTITY }
        }
      }),
      new InvoicePaymentSucceeded({
        provider: "payments",
        paymentIntentId: "pi_1",
        invoiceId: ENTITY,
        amountMinor: 36_238,
        currency: "USD"
      })
    ]
  ]
  for (const [e, command] of cases) {
    it(`${e.endpoint} ${e.type} ${JSON.stringify(e.payload.data)}`, () => {
      assert.deepStrictEqual(mapped(e), command)
    })
  }

  it("an inbox message becomes an e-mail with its attachments' decoded sizes", () => {
    const message = {
      MessageID: "m-1",
      From: "billing@vendor.example",
      To: `${TEAM}@inbox.svc.test`,
      Subject: "Invoice",
      HtmlBody: "<p>see attached</p>",
      Attachments: [
        { Name: "invoice.pdf", ContentType: "application/pdf", Content: Buffer.from("%PDF-1.4").toString("base64") },
        { Name: "empty.txt", ContentType: "text/plain", Content: "" }
      ]
    }
    assert.deepStrictEqual(
      mapped({ endpoint: "inbox", providerEventId: "m-1", type: "inbound_email", payload: message }),
      new InboxEmailReceived({
        messageId: "m-1",
        sender: "billing@vendor.example",
        recipient: `${TEAM}@inbox.svc.test`,
        subject: "Invoice",
        textBody: "",
        htmlBody: "<p>see attached</p>",
        attachments: [
          {
            filename: "invoice.pdf",
            contentType: "application/pdf",
            size: 8,
            content: Buffer.from("%PDF-1.4").toString("base64")
          },
          { filename: "empty.txt", contentType: "text/plain", size: 0, content: "" }
        ]
      })
    )
  })
})

describe("events the service does not act on map to Ignored", () => {
  const cases: ReadonlyArray<ProviderEvent> = [
    event("banking-a", "transaction.updated", { note: "hi" }),
    event("bank-aggregator-a", "item.login_required", { item_id: "item_1" }),
    event("bank-aggregator-b", "enrollment.connected", { enrollment_id: "enr_1" }),
    event("billing-a", "invoice.paid", { team_id: TEAM }),
    event("kyc-a", "applicantCreated", { note: "no entity at all" }),
    event("kyc-a", "applicantReviewed", { entity_id: ENTITY }),
    event("kyc-b", "decision", { entity_id: ENTITY, status: "expired" }),
    event("kyc-b", "decision", { entity_id: ENTITY, status: "constructor" }),
    event("kyc-b", "verification.started", { entity_id: ENTITY }),
    event("kyc-c", "inquiry.expired", { entity_id: ENTITY }),
    event("kyc-d", "check.completed", { entity_id: ENTITY, result: "unidentified" }),
    event("kyc-d", "constructor", { entity_id: ENTITY }),
    event("payments", "invoice.payment_succeeded", depositData),
    event("card-issuing-a", "deposit.received", depositData),
    event("card-issuing-a", "authorization.request", { token: "auth_1", amount: 100 }),
    event("card-issuing-a", "cards", { card_token: "card_tok_1", status: "active" }),
    event("social-premium-payments", "deposit.received", depositData),
    event("constructor", "deposit.received", depositData)
  ]
  for (const e of cases) {
    it(`${e.endpoint} ${e.type} ${JSON.stringify(e.payload.data)}`, () => {
      assert.deepStrictEqual(mapped(e), Ignored)
    })
  }
})

describe("malformed payloads of events the service acts on are refused with the invalid fields named", () => {
  const cases: ReadonlyArray<readonly [ProviderEvent, string, string]> = [
    [event("banking-a", "deposit.received", undefined), "invalid deposit data", ""],
    [event("banking-a", "deposit.received", { ...depositData, amount: 0 }), "invalid deposit data", '["amount"]'],
    [event("banking-b", "deposit.received", { ...depositData, amount: -5 }), "invalid deposit data", '["amount"]'],
    [event("banking-c", "deposit.received", { ...depositData, amount: 10.5 }), "invalid deposit data", '["amount"]'],
    [event("banking-a", "deposit.received", { ...depositData, amount: "2500" }), "invalid deposit data", '["amount"]'],
    [
      event("bank-aggregator-a", "deposit.received", { ...depositData, currency: "usd" }),
      "invalid deposit data",
      '["currency"]'
    ],
    [
      event("bank-aggregator-b", "deposit.received", { ...depositData, team_id: "acme" }),
      "invalid deposit data",
      '["team_id"]'
    ],
    [
      event("banking-a", "deposit.received", { ...depositData, account_id: "main" }),
      "invalid deposit data",
      '["account_id"]'
    ],
    [event("bank-aggregator-a", "item.disconnected", {}), "invalid item data", '["item_id"]'],
    [
      event("card-issuing-a", "authorization.advice", { token: "auth_1", amount: -1 }),
      "invalid authorization advice",
      '["amount"]'
    ],
    [event("card-issuing-a", "authorization.advice", { amount: 0 }), "invalid authorization advice", '["token"]'],
    [
      event("card-issuing-a", "transaction", { id: "txn_1", token: "auth_1", amount: 0, currency: "USD" }),
      "invalid transaction data",
      '["amount"]'
    ],
    [
      event("card-issuing-a", "transaction", { id: "txn_1", token: "auth_1", amount: 10, currency: "usd" }),
      "invalid transaction data",
      '["currency"]'
    ],
    [
      event("card-issuing-a", "transaction", { token: "auth_1", amount: 10, currency: "USD" }),
      "invalid transaction data",
      '["id"]'
    ],
    [
      event("card-issuing-a", "refund", { id: "rfd_1", token: "auth_1", amount: 0, currency: "USD" }),
      "invalid refund data",
      '["amount"]'
    ],
    [
      event("card-issuing-a", "card.updated", { card_token: "card_tok_1", status: "frozen" }),
      "invalid card data",
      '["status"]'
    ],
    [
      event("bank-aggregator-b", "enrollment.disconnected", { enrollment_id: "" }),
      "invalid enrollment data",
      '["enrollment_id"]'
    ],
    [
      event("billing-a", "subscription.updated", { team_id: TEAM, status: "active" }),
      "invalid subscription data",
      '["plan"]'
    ],
    [event("billing-a", "subscription.deleted", { team_id: 7 }), "invalid subscription data", '["team_id"]'],
    [event("kyc-c", "inquiry.approved", { entity_id: "nope" }), "invalid KYC data", '["entity_id"]'],
    [
      event("kyc-a", "applicantReviewed", { entity_id: ENTITY, review_answer: "YELLOW" }),
      "invalid KYC data",
      '["review_answer"]'
    ],
    [
      { endpoint: "inbox", providerEventId: "m-2", type: "inbound_email", payload: { MessageID: "m-2", To: "x@y.z" } },
      "invalid inbox message",
      '["From"]'
    ],
    [
      {
        endpoint: "inbox",
        providerEventId: "m-3",
        type: "inbound_email",
        payload: {
          MessageID: "m-3",
          From: "a@b.c",
          To: "x@y.z",
          Attachments: [{ Name: "a.pdf", ContentType: "application/pdf", Content: "not base64!" }]
        }
      },
      "invalid inbox message",
      '["Attachments"][0]["Content"]'
    ],
    [
      event("payments", "payment_intent.succeeded", {
        object: { id: "pi_1", amount: 100, currency: "usd", metadata: { invoice_id: "INV-0001" } }
      }),
      "invalid payment intent data",
      '["object"]["metadata"]["invoice_id"]'
    ],
    [
      event("payments", "payment_intent.succeeded", {
        object: { id: "pi_1", amount: 100, currency: "xyz", metadata: { invoice_id: ENTITY } }
      }),
      "invalid payment intent currency",
      "ISO 4217"
    ]
  ]
  for (const [e, what, field] of cases) {
    it(`${e.endpoint} ${e.type} ${JSON.stringify(e.payload.data ?? e.payload)}`, () => {
      const result = commandOf(e)
      assert.isTrue(Result.isFailure(result), JSON.stringify(result))
      if (Result.isFailure(result)) {
        assert.strictEqual(result.failure._tag, "WebhookPayloadError")
        assert.strictEqual(result.failure.reason, "invalid_payload")
        assert.include(result.failure.message, what)
        assert.include(result.failure.message, field)
      }
    })
  }
})
