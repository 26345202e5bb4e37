import { describeReason } from "@svc/domain/model"
import type {
  Approval,
  Balance,
  CardAuthorization,
  CardCredentials,
  ChangelogEntry,
  CheckoutCard,
  CheckoutIntent,
  SpendEvaluation,
  SpendRequest,
  Transfer
} from "@svc/sdk"
import { formatMoney } from "./Amount.ts"
import { columns, fields } from "./Output.ts"

type Decision = Pick<SpendEvaluation, "outcome" | "reasons">

/** The policy's reasons, one a line: each code, then the reason in words with its money as the amount beside it. */
const reasonsOf = (decision: Decision | null, currency: string): string | undefined =>
  decision === null || decision.reasons.length === 0
    ? undefined
    : decision.reasons
        .map((r) => `${r.code}: ${describeReason(r, (amountMinor) => formatMoney(amountMinor, currency))}`)
        .join("\n          ")

/** Who decided an approval: their name (else e-mail) as the service answers it, the user id only without one. */
const deciderOf = (approval: Pick<Approval, "decidedBy" | "decidedByName">): string | undefined =>
  approval.decidedByName ?? approval.decidedBy ?? undefined

const by = (decider: string | undefined) => (decider === undefined ? "" : ` by ${decider}`)

const approvalOf = (approval: SpendRequest["approval"]): string | undefined => {
  if (approval === null) return undefined
  const decider = deciderOf(approval)
  return (
    `${approval.id} ${approval.status}${by(decider)} ` +
    `(${approval.approvals.received}/${approval.approvals.required} approvals, expires ${approval.expiresAt})`
  )
}

/** The balance of the credential's account. */
export const balance = (b: Balance): string =>
  fields([
    ["account", b.accountId],
    ["available", formatMoney(b.available, b.currency)],
    ["posted", formatMoney(b.posted, b.currency)],
    ["pending", formatMoney(b.pending, b.currency)]
  ])

/** One spend request with the policy's reasons. */
export const spendRequest = (r: SpendRequest): string =>
  fields([
    ["id", r.id],
    ["status", r.status],
    ["amount", formatMoney(r.amount, r.currency)],
    ["merchant", r.merchant.category === null ? r.merchant.name : `${r.merchant.name} (${r.merchant.category})`],
    ["url", r.merchant.url],
    ["purpose", r.purpose],
    ["reasons", reasonsOf(r.decision, r.currency)],
    ["approval", approvalOf(r.approval)],
    ["created", r.createdAt]
  ])

/** A page of spend requests, one a line. */
export const spendRequests = (rs: ReadonlyArray<SpendRequest>): string =>
  rs.length === 0
    ? "no spend requests"
    : columns([
        ["ID", "STATUS", "AMOUNT", "MERCHANT", "CREATED"],
        ...rs.map((r) => [r.id, r.status, formatMoney(r.amount, r.currency), r.merchant.name, r.createdAt])
      ])

const subjectOf = (a: Approval): string => {
  switch (a.subjectType) {
    case "spend_request":
      return `spend ${formatMoney(a.subject.amount, a.subject.currency)} at ${a.subject.merchant.name}: ${a.subject.purpose}`
    case "transfer":
      return `transfer ${formatMoney(a.subject.amount, "USD")} to ${a.subject.to.address}`
    case "checkout_intent":
      return `checkout ${formatMoney(a.subject.amount, a.subject.currency)} at ${a.subject.merchant.name}: ${a.subject.purpose}`
    case "crypto_payout":
      return `payout ${formatMoney(a.subject.amount, a.subject.currency)} to ${a.subject.address}`
    case "x402_payment":
      return `x402 ${formatMoney(a.subject.amount, a.subject.currency)} for ${a.subject.resourceUrl}`
  }
}

/** One approval with what it decides. */
export const approval = (a: Approval): string =>
  fields([
    ["id", a.id],
    ["status", a.status],
    ["subject", subjectOf(a)],
    ["approvals", `${a.approvals.received}/${a.approvals.required}`],
    ["decided", a.decidedAt === null ? undefined : `${a.decidedAt}${by(deciderOf(a))}`],
    ["note", a.note],
    ["expires", a.expiresAt]
  ])

/** A page of approvals, one a line. */
export const approvals = (as: ReadonlyArray<Approval>): string =>
  as.length === 0
    ? "no approvals"
    : columns([
        ["ID", "STATUS", "EXPIRES", "DECIDED BY", "SUBJECT"],
        ...as.map((a) => [a.id, a.status, a.expiresAt, deciderOf(a) ?? "", subjectOf(a)])
      ])

/** One transfer as the caller's team sees it. */
export const transfer = (t: Transfer): string =>
  fields([
    ["id", t.id],
    ["status", t.status],
    ["direction", t.direction],
    ["amount", formatMoney(t.amount, t.currency)],
    ["from", t.from.address],
    ["to", t.to.paymentCode === null ? t.to.address : `${t.to.address} (code ${t.to.paymentCode})`],
    ["memo", t.memo],
    ["reasons", reasonsOf(t.decision, t.currency)],
    ["approval", approvalOf(t.approval)],
    ["expires", t.expiresAt],
    ["created", t.createdAt]
  ])

/** A page of transfers, one a line. */
export const transfers = (ts: ReadonlyArray<Transfer>): string =>
  ts.length === 0
    ? "no transfers"
    : columns([
        ["ID", "STATUS", "DIRECTION", "AMOUNT", "COUNTERPARTY", "CREATED"],
        ...ts.map((t) => [
          t.id,
          t.status,
          t.direction,
          formatMoney(t.amount, t.currency),
          t.direction === "outgoing" ? t.to.address : t.from.address,
          t.createdAt
        ])
      ])

/** One checkout intent with the policy's reasons. */
export const checkoutIntent = (c: CheckoutIntent): string =>
  fields([
    ["id", c.id],
    ["status", c.status],
    ["amount", formatMoney(c.amount, c.currency)],
    ["merchant", c.merchant.name],
    ["purpose", c.purpose],
    ["reasons", reasonsOf(c.decision, c.currency)],
    ["approval", approvalOf(c.approval)],
    ["card", c.card === null ? undefined : c.card.id],
    ["expires", c.expiresAt]
  ])

/** The card of an intent; its number and CVC only the first time they are fetched. */
export const card = (c: CardCredentials): string =>
  [
    fields([
      ["card", c.cardId],
      ["brand", c.brand],
      ["number", c.number ?? `**** **** **** ${c.last4} (the number is shown only once)`],
      ["cvc", c.cvc],
      ["expires", `${String(c.expMonth).padStart(2, "0")}/${c.expYear}`]
    ]),
    c.number === undefined
      ? ""
      : "\nThe number and CVC are shown once: the service will not give them again. Store them now if you must."
  ].join("")

/** A simulated authorization: the decision, its reason, and what it holds, cleared and refunded. */
export const cardAuthorization = (a: CardAuthorization): string =>
  fields([
    ["id", a.id],
    ["decision", a.decision],
    ["reason", a.declineReason],
    ["status", a.status],
    ["amount", formatMoney(a.amount, a.currency)],
    ["held", formatMoney(a.heldAmount, a.currency)],
    ["refunded", a.refundedAmount === 0 ? undefined : formatMoney(a.refundedAmount, a.currency)],
    ["merchant", a.merchant.descriptor],
    ["card", a.cardId],
    ["intent", a.intentId]
  ])

/** A card's state, never its number. */
export const checkoutCard = (c: CheckoutCard): string =>
  fields([
    ["card", c.id],
    ["status", c.status],
    ["last4", c.last4],
    ["intent", c.intentId]
  ])

/** The changelog, newest first: each entry's date, title and a BREAKING mark, then what changed and what to do. */
export const changelog = (log: { readonly entries: ReadonlyArray<ChangelogEntry> }): string =>
  log.entries
    .map((entry) =>
      [
        `${entry.date}  ${entry.title}${entry.breaking ? "  [BREAKING]" : ""}`,
        `  changed: ${entry.change}`,
        `  to do:   ${entry.action}`
      ].join("\n")
    )
    .join("\n\n")
