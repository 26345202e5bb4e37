import { Option, Schema } from "effect"
import type { ApprovalSubjectType } from "../approvals/model.ts"
import type { DomainEvent } from "../platform/index.ts"
import type { ChatApprovalSummary } from "./ChatApprovalMessage.ts"

/** The outbox events that ask for an approval in chat: one per governed subject type. */
export const CHAT_APPROVAL_REQUESTS = [
  "spend_request.approval_required",
  "transfer.approval_required",
  "checkout_intent.approval_required",
  "crypto_payout.approval_required"
] as const

/**
 * The outbox events after which an approval's message may have to change: a member's step (every approval and denial,
 * wherever made, records one) and the subjects' endings that end their approval without a step (expiry, cancellation).
 */
export const CHAT_APPROVAL_CHANGES = [
  "approval.step_recorded",
  "spend_request.expired",
  "spend_request.canceled",
  "transfer.expired",
  "transfer.canceled",
  "checkout_intent.expired",
  "checkout_intent.canceled",
  "crypto_payout.expired",
  "crypto_payout.canceled"
] as const

/** Every outbox event type the chat pass takes (a test checks the Postgres trigger lists the same). */
export const CHAT_EVENTS: ReadonlyArray<string> = [...CHAT_APPROVAL_REQUESTS, ...CHAT_APPROVAL_CHANGES]

const Named = Schema.Struct({ name: Schema.String })

/** The parts of a governed subject's view (the events' `data`) an approval message reads; the rest is ignored. */
const SubjectData = Schema.Struct({
  id: Schema.String,
  amount: Schema.Int,
  currency: Schema.String,
  approval: Schema.NullOr(Schema.Struct({ id: Schema.String, expiresAt: Schema.String })),
  decision: Schema.NullOr(Schema.Struct({ reasons: Schema.Array(Schema.Struct({ message: Schema.String })) })),
  merchant: Schema.optionalKey(Named),
  purpose: Schema.optionalKey(Schema.String),
  memo: Schema.optionalKey(Schema.NullOr(Schema.String)),
  to: Schema.optionalKey(Schema.Struct({ address: Schema.String })),
  address: Schema.optionalKey(Schema.String),
  network: Schema.optionalKey(Schema.String),
  asset: Schema.optionalKey(Schema.String)
})
type SubjectData = typeof SubjectData.Type

const ApprovalData = Schema.Struct({ object: Schema.Literal("approval"), id: Schema.String })

const decodeSubject = Schema.decodeUnknownOption(SubjectData)
const decodeApproval = Schema.decodeUnknownOption(ApprovalData)

const SUBJECT_OF_REQUEST: Record<(typeof CHAT_APPROVAL_REQUESTS)[number], ApprovalSubjectType> = {
  "spend_request.approval_required": "spend_request",
  "transfer.approval_required": "transfer",
  "checkout_intent.approval_required": "checkout_intent",
  "crypto_payout.approval_required": "crypto_payout"
}

const isRequest = (type: string): type is (typeof CHAT_APPROVAL_REQUESTS)[number] => type in SUBJECT_OF_REQUEST

const merchantOf = (data: SubjectData): string =>
  data.merchant?.name ??
  data.to?.address ??
  (data.address === undefined ? "" : `${data.asset ?? ""} on ${data.network ?? ""} to ${data.address}`.trim())

/** What an approval request event asks: the approval, and the message's summary but for who asked. */
export interface ChatApprovalRequest {
  readonly approvalId: string
  readonly summary: Omit<ChatApprovalSummary, "requester">
}

/** The approval an `*.approval_required` event asks for, with what its message says; none for any other event. */
export const chatApprovalRequestOf = (event: DomainEvent): Option.Option<ChatApprovalRequest> => {
  if (!isRequest(event.type)) return Option.none()
  const subjectType = SUBJECT_OF_REQUEST[event.type]
  return Option.flatMap(decodeSubject(event.data), (data) =>
    data.approval === null
      ? Option.none()
      : Option.some({
          approvalId: data.approval.id,
          summary: {
            subjectType,
            subjectId: data.id,
            amountMinor: data.amount,
            currency: data.currency,
            merchant: merchantOf(data),
            purpose: data.purpose ?? data.memo ?? "",
            reasons: data.decision?.reasons.map((r) => r.message) ?? [],
            expiresAt: data.approval.expiresAt
          }
        })
  )
}

/** The approval an event of a subject or of an approval concerns; none when it names none. */
export const chatApprovalIdOf = (event: DomainEvent): Option.Option<string> =>
  Option.orElse(
    Option.map(decodeApproval(event.data), (a) => a.id),
    () => Option.flatMap(decodeSubject(event.data), (s) => Option.fromNullishOr(s.approval?.id))
  )
