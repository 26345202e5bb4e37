import { Currency, type KycStatus, PositiveAmountMinor } from "@svc/domain"
import { Schema } from "effect"

const Uuid = Schema.String.check(Schema.isUUID(undefined, { message: "expected a UUID" }))
const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))
const Required = (max: number) => Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(max))

/** `deposit.received` data (banking-a/b/c, bank-aggregator-a/b): money arrived on the team's live account. */
export const DepositData = Schema.Struct({
  team_id: Uuid,
  amount: PositiveAmountMinor,
  currency: Currency,
  account_id: Schema.optionalKey(Uuid)
})

/** KYC event data: the managed entity the event is about, plus the provider's verdict fields. */
export const KycData = Schema.Struct({
  entity_id: Uuid,
  review_answer: Schema.optionalKey(Schema.Literals(["GREEN", "RED"])),
  status: Schema.optionalKey(Schema.String),
  result: Schema.optionalKey(Schema.String)
})

/** billing-a subscription event data. */
export const SubscriptionData = Schema.Struct({
  team_id: Uuid,
  plan: Required(100),
  status: Required(50)
})

/** bank-aggregator-a item events (`item.disconnected`, `item.error`). */
export const ItemData = Schema.Struct({ item_id: Required(200) })

/** bank-aggregator-b enrollment events (`enrollment.disconnected`). */
export const EnrollmentData = Schema.Struct({ enrollment_id: Required(200) })

/** The inbound e-mail provider's message JSON (inbox). */
export const InboxMessage = Schema.Struct({
  MessageID: Required(998),
  From: Required(998),
  To: Required(998),
  Subject: Schema.optionalKey(Text(998)),
  TextBody: Schema.optionalKey(Schema.String),
  HtmlBody: Schema.optionalKey(Schema.String),
  Attachments: Schema.optionalKey(
    Schema.Array(
      Schema.Struct({
        Name: Required(255),
        ContentType: Required(255),
        Content: Schema.String.check(Schema.isPattern(/^[A-Za-z0-9+/]*={0,2}$/u, { message: "expected base64" }))
      })
    ).check(Schema.isMaxLength(50))
  )
})
export type InboxMessage = typeof InboxMessage.Type

/** The KYC status a provider's event reports, per endpoint; undefined when the event carries no verdict. */
export const kycStatusOf = (
  endpoint: string,
  type: string,
  data: typeof KycData.Type
): typeof KycStatus.Type | undefined => {
  switch (endpoint) {
    case "kyc-a":
      if (type === "applicantReviewed")
        return data.review_answer === "GREEN" ? "approved" : data.review_answer === "RED" ? "rejected" : undefined
      if (type === "applicantPending") return "pending"
      if (type === "applicantOnHold") return "in_review"
      return undefined
    case "kyc-b":
      if (type !== "decision") return undefined
      return (
        { approved: "approved", declined: "rejected", resubmission_requested: "pending", review: "in_review" } as const
      )[data.status as "approved"]
    case "kyc-c":
      return (
        {
          "inquiry.created": "pending",
          "inquiry.completed": "in_review",
          "inquiry.approved": "approved",
          "inquiry.declined": "rejected",
          "inquiry.failed": "rejected"
        } as const
      )[type as "inquiry.created"]
    case "kyc-d":
      if (type === "check.started") return "pending"
      if (type !== "check.completed") return undefined
      return data.result === "clear" ? "approved" : data.result === "consider" ? "in_review" : undefined
    default:
      return undefined
  }
}
