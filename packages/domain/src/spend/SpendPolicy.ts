import { DateTime, Schema } from "effect"
import { Role } from "../identity/model.ts"
import { AmountMinor, isoOfMillis } from "../shared/model.ts"
import { AllowedHours, checkAllowedHours, OutsideHours } from "./AllowedHours.ts"

/** A lowercase category slug such as `software` or `travel-agency`. */
export const CategorySlug = Schema.String.check(
  Schema.isPattern(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/u, {
    message: 'expected a lowercase slug (a-z, 0-9, single "-" or "_" separators), e.g. "software"'
  })
)

/** A merchant name as used in policy allow and block lists. */
export const MerchantName = Schema.String.check(
  Schema.isMinLength(1, { message: "expected a non-empty merchant name" }),
  Schema.isMaxLength(200, { message: "expected a merchant name of at most 200 characters" }),
  Schema.isPattern(/\S/u, { message: "expected a merchant name that is not only whitespace" })
)

const MerchantList = Schema.Array(MerchantName).check(
  Schema.isMaxLength(100, { message: "expected at most 100 merchants" })
)

/** Minimum allowed `approvalTtlSeconds` (one minute). */
export const MIN_APPROVAL_TTL_SECONDS = 60

/** Maximum allowed `approvalTtlSeconds` (30 days). */
export const MAX_APPROVAL_TTL_SECONDS = 2_592_000

/** Approval lifetime used when neither the key nor the team sets `approvalTtlSeconds` (24 h). */
export const DEFAULT_APPROVAL_TTL_SECONDS = 86_400

/** Lifetime of a pending approval in seconds. */
export const ApprovalTtlSeconds = Schema.Int.check(
  Schema.isBetween(
    { minimum: MIN_APPROVAL_TTL_SECONDS, maximum: MAX_APPROVAL_TTL_SECONDS },
    { message: `expected an approval TTL between ${MIN_APPROVAL_TTL_SECONDS} and ${MAX_APPROVAL_TTL_SECONDS} seconds` }
  )
)

/** Spend policy of a spending key or team defaults; every field is optional. */
export const SpendPolicy = Schema.Struct({
  perRequestLimit: Schema.optionalKey(AmountMinor),
  dailyBudget: Schema.optionalKey(AmountMinor),
  monthlyBudget: Schema.optionalKey(AmountMinor),
  approvalThreshold: Schema.optionalKey(AmountMinor),
  allowedCategories: Schema.optionalKey(Schema.Array(CategorySlug)),
  blockedCategories: Schema.optionalKey(Schema.Array(CategorySlug)),
  allowedMerchants: Schema.optionalKey(MerchantList),
  blockedMerchants: Schema.optionalKey(MerchantList),
  approvalTtlSeconds: Schema.optionalKey(ApprovalTtlSeconds),
  /** Sends the first request to a merchant the team has never paid (by normalised name) to approval, whatever its amount. */
  reviewNewMerchants: Schema.optionalKey(
    Schema.Boolean.annotate({
      description:
        "When true, the first request to a merchant the key's team has never paid (compared by normalised name: " +
        "case, width and whitespace folded) goes to approval with reason `new_merchant`, whatever its amount. A " +
        "merchant becomes known once a request to it is approved and posted (a transfer once accepted, a checkout " +
        "intent once its card payment clears)."
    })
  ),
  /** When requests are allowed, in an IANA time zone; a request outside them gets what `outsideHours` says. */
  allowedHours: Schema.optionalKey(AllowedHours),
  /** What a request outside `allowedHours` gets: `"approval"`, or `"deny"` (the default). */
  outsideHours: Schema.optionalKey(
    OutsideHours.annotate({
      description:
        'What a request outside `allowedHours` gets: `"deny"` (the default) or `"approval"`; either way the reason ' +
        "`outside_allowed_hours` carries `nextAllowedAt`, the start of the next allowed window."
    })
  )
})

/** Decoded spend policy. */
export type SpendPolicy = typeof SpendPolicy.Type

/**
 * Stable reason codes attached to a spend decision, in evaluation order. Denials first: `spending_frozen`, the
 * merchant and category lists, `outside_allowed_hours` (when the policy denies outside them), `amount_over_limit`,
 * `velocity_exceeded`, the budgets (day, week, month, year, lifetime, then category budgets), `insufficient_funds`.
 * When nothing denies, the reasons that route to approval: `outside_allowed_hours` (when the policy asks for approval
 * outside them), `new_merchant`, `approval_threshold`. Every rule that fires is reported, in this order.
 */
export const DecisionReasonCode = Schema.Literals([
  "spending_frozen",
  "merchant_blocked",
  "category_blocked",
  "outside_allowed_hours",
  "amount_over_limit",
  "velocity_exceeded",
  "daily_budget_exceeded",
  "weekly_budget_exceeded",
  "monthly_budget_exceeded",
  "yearly_budget_exceeded",
  "lifetime_budget_exceeded",
  "category_budget_exceeded",
  "insufficient_funds",
  "new_merchant",
  "approval_threshold"
])

/** A stable reason code attached to a spend decision. */
export type DecisionReasonCode = typeof DecisionReasonCode.Type

/** Outcome of evaluating a spend request against policy. */
export const SpendOutcome = Schema.Literals(["approved", "denied", "pending_approval"])

/** Outcome of evaluating a spend request against policy. */
export type SpendOutcome = typeof SpendOutcome.Type

/** The period a budget or a velocity limit counts over; `lifetime` never resets, `hour` is a rolling hour. */
export const UsageInterval = Schema.Literals(["hour", "day", "week", "month", "year", "lifetime"])

/** The period a budget or a velocity limit counts over. */
export type UsageInterval = typeof UsageInterval.Type

/** Who must approve a request routed to approval, and how many of them. */
export const RequiredApprovers = Schema.Struct({
  /** Distinct eligible members whose approvals make the quorum. */
  required: Schema.Int,
  /** Team roles whose members may approve. */
  roles: Schema.Array(Role),
  /** Whether one of the approvals must be the team owner's. */
  requireOwner: Schema.Boolean
})

/** Who must approve a request routed to approval, and how many of them. */
export type RequiredApprovers = typeof RequiredApprovers.Type

/**
 * One rule that fired: its stable code, a human-readable message, and the figures an agent acts on. Amounts are in
 * minor units; counts for `velocity_exceeded`. Which figures a code carries is documented with the code.
 */
export const DecisionReason = Schema.Struct({
  code: DecisionReasonCode,
  message: Schema.String,
  /** The limit that was crossed: a budget, the per-request limit, a request count, the approval threshold. */
  limit: Schema.optionalKey(Schema.Int),
  /** What the period has used of `limit` before this request. */
  used: Schema.optionalKey(Schema.Int),
  /** What this request asks for (its amount; 1 for a request count). */
  requested: Schema.optionalKey(Schema.Int),
  /** What is left of `limit` in the period, never below 0. */
  remaining: Schema.optionalKey(Schema.Int),
  /** The spend account's available balance (`insufficient_funds`). */
  available: Schema.optionalKey(Schema.Int),
  /** The period a budget or a velocity limit counts over. */
  interval: Schema.optionalKey(UsageInterval),
  /** The category of a category budget. */
  category: Schema.optionalKey(Schema.String),
  /** When the period's usage starts again from 0 (ISO 8601); absent for lifetime budgets. */
  resetsAt: Schema.optionalKey(Schema.String),
  /** The earliest moment a request like this one can be allowed (velocity, allowed hours), ISO 8601. */
  nextAllowedAt: Schema.optionalKey(Schema.String),
  /** Who must approve and how many (reasons that route to approval). */
  approvers: Schema.optionalKey(RequiredApprovers)
})

/** One rule that fired, with its code, message and figures. */
export type DecisionReason = typeof DecisionReason.Type

/** The policy decision for a spend request. */
export const SpendDecision = Schema.Struct({ outcome: SpendOutcome, reasons: Schema.Array(DecisionReason) })

/** The policy decision for a spend request. */
export type SpendDecision = typeof SpendDecision.Type

/** Input of `evaluateSpend`; all amounts are in minor units of the account currency. */
export interface SpendEvaluationInput {
  readonly policy: SpendPolicy
  readonly amount: number
  readonly merchant: { readonly name: string; readonly category?: string | undefined }
  readonly spentToday: number
  readonly spentThisMonth: number
  readonly available: number
  /** When the request is decided (epoch millis): what `allowedHours` is checked against. */
  readonly now: number
  /** Whether the key's team has paid this merchant before (normalised name); absent counts as never. */
  readonly merchantKnown?: boolean | undefined
  /** Who must approve a request routed to approval; one owner or admin when absent. */
  readonly approvers?: RequiredApprovers | undefined
}

/** Who approves when no approval rule says otherwise: any one owner or admin of the team. */
export const DEFAULT_APPROVERS: RequiredApprovers = { required: 1, roles: ["owner", "admin"], requireOwner: false }

/** Merges a key's policy over team defaults: each team field applies only where the key's field is absent. */
export const effectivePolicy = (keyPolicy: SpendPolicy, teamDefaults: SpendPolicy): SpendPolicy => ({
  ...teamDefaults,
  ...keyPolicy
})

/**
 * A merchant's normalised name, under which lists match and teams know merchants: Unicode NFKC, runs of whitespace
 * made one space, trimmed, lower-cased.
 */
export const normalizeMerchantName = (name: string): string =>
  name.normalize("NFKC").replace(/\s+/gu, " ").trim().toLowerCase()

const quote = (value: string): string => JSON.stringify(value)

const merchantReason = (policy: SpendPolicy, name: string): DecisionReason | undefined => {
  const normalized = normalizeMerchantName(name)
  if (policy.blockedMerchants?.some((m) => normalizeMerchantName(m) === normalized)) {
    return { code: "merchant_blocked", message: `merchant ${quote(name)} is on the blocked merchant list` }
  }
  if (
    policy.allowedMerchants !== undefined &&
    !policy.allowedMerchants.some((m) => normalizeMerchantName(m) === normalized)
  ) {
    return { code: "merchant_blocked", message: `merchant ${quote(name)} is not on the allowed merchant list` }
  }
  return undefined
}

const categoryReason = (policy: SpendPolicy, rawCategory: string | undefined): DecisionReason | undefined => {
  const category = rawCategory?.trim().toLowerCase() || undefined
  if (category !== undefined && policy.blockedCategories?.includes(category)) {
    return { code: "category_blocked", message: `category ${quote(category)} is on the blocked category list` }
  }
  if (policy.allowedCategories !== undefined) {
    if (category === undefined) {
      return {
        code: "category_blocked",
        message: "the request has no category but the policy only allows listed categories"
      }
    }
    if (!policy.allowedCategories.includes(category)) {
      return { code: "category_blocked", message: `category ${quote(category)} is not on the allowed category list` }
    }
  }
  return undefined
}

const budgetReason = (
  code: "daily_budget_exceeded" | "monthly_budget_exceeded",
  label: string,
  budget: number | undefined,
  spent: number,
  amount: number
): DecisionReason | undefined =>
  budget !== undefined && !(amount <= budget - spent)
    ? {
        code,
        message: `${label} spend ${spent} plus amount ${amount} is ${spent + amount}, which exceeds the ${label} budget ${budget}`
      }
    : undefined

const hoursReason = (
  policy: SpendPolicy,
  now: number,
  outside: "approval" | "deny",
  approvers: RequiredApprovers
): DecisionReason | undefined => {
  if (policy.allowedHours === undefined || (policy.outsideHours ?? "deny") !== outside) return undefined
  const hours = policy.allowedHours
  const check = checkAllowedHours(hours, now)
  if (check.inside) return undefined
  const nextAllowedAt = isoOfMillis(check.nextAllowedAt)
  const window = `${hours.days.join(", ")} ${hours.from}-${hours.to} ${hours.timezone}`
  return {
    code: "outside_allowed_hours",
    message:
      outside === "deny"
        ? `requests are allowed ${window}; the next allowed time is ${nextAllowedAt}`
        : `requests outside ${window} need approval; the next allowed time is ${nextAllowedAt}`,
    nextAllowedAt,
    ...(outside === "approval" ? { approvers } : {})
  }
}

const newMerchantReason = (input: SpendEvaluationInput, approvers: RequiredApprovers): DecisionReason | undefined =>
  input.policy.reviewNewMerchants === true && input.merchantKnown !== true
    ? {
        code: "new_merchant",
        message: `the team has never paid merchant ${quote(input.merchant.name)}; its first request needs approval`,
        approvers
      }
    : undefined

/** Evaluates a spend request against an effective policy in contract order; pure and total. */
export const evaluateSpend = (input: SpendEvaluationInput): SpendDecision => {
  const { amount, available, policy } = input
  const approvers = input.approvers ?? DEFAULT_APPROVERS
  const candidates: ReadonlyArray<DecisionReason | undefined> = [
    merchantReason(policy, input.merchant.name),
    categoryReason(policy, input.merchant.category),
    hoursReason(policy, input.now, "deny", approvers),
    policy.perRequestLimit !== undefined && !(amount <= policy.perRequestLimit)
      ? {
          code: "amount_over_limit",
          message: `amount ${amount} exceeds the per-request limit ${policy.perRequestLimit}`
        }
      : undefined,
    budgetReason("daily_budget_exceeded", "daily", policy.dailyBudget, input.spentToday, amount),
    budgetReason("monthly_budget_exceeded", "monthly", policy.monthlyBudget, input.spentThisMonth, amount),
    !(available >= amount)
      ? { code: "insufficient_funds", message: `available balance ${available} is below the amount ${amount}` }
      : undefined
  ]
  const denials = candidates.filter((reason): reason is DecisionReason => reason !== undefined)
  if (denials.length > 0) return { outcome: "denied", reasons: denials }
  const toApproval = [
    hoursReason(policy, input.now, "approval", approvers),
    newMerchantReason(input, approvers),
    policy.approvalThreshold !== undefined && amount >= policy.approvalThreshold
      ? {
          code: "approval_threshold" as const,
          message: `amount ${amount} is at or above the approval threshold ${policy.approvalThreshold}`
        }
      : undefined
  ].filter((reason): reason is DecisionReason => reason !== undefined)
  if (toApproval.length > 0) return { outcome: "pending_approval", reasons: toApproval }
  return { outcome: "approved", reasons: [] }
}

const MILLIS_PER_DAY = 86_400_000

const utcMonthStartOffset = (epochMillis: number, monthOffset: number): number =>
  DateTime.toEpochMillis(
    DateTime.add(DateTime.startOf(DateTime.makeUnsafe(epochMillis), "month"), { months: monthOffset })
  )

/** Epoch millis of 00:00:00.000 UTC on the day containing `epochMillis`. */
export const utcDayStart = (epochMillis: number): number =>
  epochMillis - (((epochMillis % MILLIS_PER_DAY) + MILLIS_PER_DAY) % MILLIS_PER_DAY)

/** Epoch millis of 00:00:00.000 UTC on the day after the one containing `epochMillis`. */
export const nextUtcDayStart = (epochMillis: number): number => utcDayStart(epochMillis) + MILLIS_PER_DAY

/** Epoch millis of 00:00:00.000 UTC on the first day of the month containing `epochMillis`. */
export const utcMonthStart = (epochMillis: number): number => utcMonthStartOffset(epochMillis, 0)

/** Epoch millis of 00:00:00.000 UTC on the first day of the month after the one containing `epochMillis`. */
export const nextUtcMonthStart = (epochMillis: number): number => utcMonthStartOffset(epochMillis, 1)

/** Epoch millis at which a pending approval created at `createdAtMillis` expires under `policy`. */
export const approvalExpiresAt = (createdAtMillis: number, policy: Pick<SpendPolicy, "approvalTtlSeconds">): number =>
  createdAtMillis + (policy.approvalTtlSeconds ?? DEFAULT_APPROVAL_TTL_SECONDS) * 1000
