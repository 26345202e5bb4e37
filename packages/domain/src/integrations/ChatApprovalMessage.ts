import { Schema } from "effect"
import { type Approval, ApprovalId, ApprovalSubjectType } from "../approvals/model.ts"
import { exponentOf } from "../finance/money/model.ts"
import { TeamId } from "../shared/model.ts"
import type { ChatMessageContent, ChatMessageTag } from "./ChatMessaging.ts"

/**
 * Where the chat message of an approval stands: waiting to be posted, posted with its buttons, posted and waiting to
 * show a decision, showing the final decision, or given up (the channel or the integration is gone).
 */
export const ChatMessageStatus = Schema.Literals(["to_post", "posted", "to_update", "closed", "failed"])
export type ChatMessageStatus = typeof ChatMessageStatus.Type

/** What the message of an approval says about the request, fixed when the approval is asked for. */
export const ChatApprovalSummary = Schema.Struct({
  subjectType: ApprovalSubjectType,
  subjectId: Schema.String,
  /** The credential that asked: its name, or its id when it has none the team can read. */
  requester: Schema.String,
  amountMinor: Schema.Int,
  currency: Schema.String,
  merchant: Schema.String,
  purpose: Schema.String,
  reasons: Schema.Array(Schema.String),
  expiresAt: Schema.String
})
export type ChatApprovalSummary = typeof ChatApprovalSummary.Type

/** The one chat message of an approval of a team with a chat integration, as the posting worker keeps it. */
export const ChatApprovalMessage = Schema.Struct({
  approvalId: ApprovalId,
  teamId: TeamId,
  channelId: Schema.String,
  summary: ChatApprovalSummary,
  status: ChatMessageStatus,
  /** The platform's id of the posted message; null until it is known to be posted. */
  ts: Schema.NullOr(Schema.String),
  /** Moves on with every change of the approval, so an outcome recorded for an older one asks for an update. */
  revision: Schema.Int,
  /** Attempts at the pending post or update, counted when a worker claims it. */
  attempts: Schema.Int,
  nextAttemptAt: Schema.String,
  lastError: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type ChatApprovalMessage = typeof ChatApprovalMessage.Type

/** The tag every approval message carries, naming its approval: how a post that was not recorded is found again. */
export const approvalMessageTag = (approvalId: string): ChatMessageTag => ({
  eventType: "approval_requested",
  key: "approval_id",
  value: approvalId
})

/** The action ids of the message's buttons; each button's value is the approval id. */
export const ChatApprovalActions = { approve: "approve", deny: "deny" } as const

/** An amount in minor units written in major units with its currency: 123456 USD is `1,234.56 USD`. */
export const majorUnits = (amountMinor: number, currency: string): string => {
  const exponent = exponentOf(currency)
  const negative = amountMinor < 0
  const digits = Math.abs(amountMinor)
    .toString()
    .padStart(exponent + 1, "0")
  const whole = digits.slice(0, digits.length - exponent).replace(/\B(?=(\d{3})+(?!\d))/gu, ",")
  const fraction = exponent === 0 ? "" : `.${digits.slice(digits.length - exponent)}`
  return `${negative ? "-" : ""}${whole}${fraction} ${currency}`
}

/** Text from outside (an agent's merchant or purpose) made inert: no mentions, links or formatting of the platform. */
export const chatEscape = (text: string): string =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replace(/[*_~`]/gu, (c) => `\\${c}`)

const SUBJECT_NOUNS: Record<ApprovalSubjectType, string> = {
  spend_request: "a spend request",
  transfer: "a transfer",
  checkout_intent: "a checkout intent",
  crypto_payout: "a crypto payout",
  x402_payment: "an x402 payment"
}

/** How the approval stands when the message is drawn, and the name of the member who ended it, if one did. */
export interface ChatApprovalState {
  readonly approval: Pick<Approval, "status" | "decidedAt" | "approvers" | "decisions">
  readonly decidedByName: string | null
}

const outcomeLine = (state: ChatApprovalState): string | null => {
  const { approval } = state
  const by = state.decidedByName === null ? "" : ` by ${chatEscape(state.decidedByName)}`
  const at = approval.decidedAt === null ? "" : ` at ${approval.decidedAt}`
  switch (approval.status) {
    case "pending":
      return null
    case "approved":
      return `:white_check_mark: Approved${by}${at}`
    case "denied":
      return `:no_entry: Denied${by}${at}`
    case "expired":
      return `:hourglass: Expired${at}, undecided`
    case "canceled":
      return `:heavy_multiplication_x: Canceled by the requester${at}`
  }
}

/**
 * The message of an approval: who asks, how much, where, why it needs a person, until when; Approve and Deny buttons
 * while it is pending, and the outcome (who decided, when) once it is not.
 */
export const chatApprovalContent = (
  message: Pick<ChatApprovalMessage, "approvalId" | "summary">,
  state: ChatApprovalState
): ChatMessageContent => {
  const s = message.summary
  const amount = majorUnits(s.amountMinor, s.currency)
  const headline = `Approval for ${SUBJECT_NOUNS[s.subjectType]} of ${amount} to ${chatEscape(s.merchant)}`
  const lines = [
    `*${headline}*`,
    `Requested by: ${chatEscape(s.requester)}`,
    ...(s.purpose.length === 0 ? [] : [`Purpose: ${chatEscape(s.purpose)}`]),
    ...(s.reasons.length === 0 ? [] : [`Why: ${s.reasons.map(chatEscape).join("; ")}`]),
    `Expires: ${s.expiresAt}`
  ]
  const { approvers, decisions } = state.approval
  const received = decisions.filter((d) => d.decision === "approved").length
  if (approvers.required > 1) lines.push(`Approvals: ${received} of ${approvers.required}`)
  const outcome = outcomeLine(state)
  const section = { type: "section", text: { type: "mrkdwn", text: lines.join("\n") } }
  const button = (action: keyof typeof ChatApprovalActions, label: string, style: string) => ({
    type: "button",
    action_id: ChatApprovalActions[action],
    text: { type: "plain_text", text: label },
    style,
    value: message.approvalId
  })
  const tail =
    outcome === null
      ? {
          type: "actions",
          block_id: `approval:${message.approvalId}`,
          elements: [button("approve", "Approve", "primary"), button("deny", "Deny", "danger")]
        }
      : { type: "context", elements: [{ type: "mrkdwn", text: outcome }] }
  return { text: outcome === null ? headline : `${headline}: ${outcome}`, blocks: [section, tail] }
}
