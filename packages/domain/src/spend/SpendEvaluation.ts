import { type ApprovalTier, approvalTierOf, type RequiredApprovers } from "../approvals/model.ts"
import { isoOfMillis } from "../shared/model.ts"
import { checkAllowedHours } from "./AllowedHours.ts"
import { nextPeriodStart, nextUtcDayStart } from "./BudgetPeriods.ts"
import {
  BUDGET_INTERVALS,
  type BudgetInterval,
  type DecisionReason,
  type DecisionReasonCode,
  normalizeCategory,
  normalizeMerchantName,
  type SpendDecision,
  type SpendingFrozenBy,
  type SpendPolicy,
  type UsageTotals
} from "./SpendPolicy.ts"

/** Input of `evaluateSpend`; all amounts are in minor units of the account currency. */
export interface SpendEvaluationInput {
  readonly policy: SpendPolicy
  readonly amount: number
  readonly merchant: { readonly name: string; readonly category?: string | undefined }
  /** When the request is decided (epoch millis): the periods, resets and the rolling hour are counted from it. */
  readonly now: number
  /** The credential's approved and pending spend in each interval `now` falls in. */
  readonly spent: UsageTotals
  /** The same totals of the request's category alone (all 0 without a category). */
  readonly categorySpent: UsageTotals
  /**
   * When the credential's counted requests (every outcome but denied) were made, epoch millis: at least the most
   * recent `maxRequestsPerHour` of the hour before `now` (older ones are ignored).
   */
  readonly recentRequests: ReadonlyArray<number>
  /** How many counted requests the credential made in the UTC day of `now` (at least up to `maxRequestsPerDay`). */
  readonly requestsToday: number
  readonly available: number
  /** The freeze stopping the credential's spending (its team's or its own); absent when spending is open. */
  readonly frozen?: SpendingFrozenBy | undefined
  /** The team's approval chain (`ApprovalRules.tiers`); absent or empty for one owner or admin above the threshold. */
  readonly approvalTiers?: ReadonlyArray<ApprovalTier> | undefined
  /** Whether the key's team has paid this merchant before (normalised name); absent counts as never. */
  readonly merchantKnown?: boolean | undefined
}

/** The `spending_frozen` reason of a freeze; none while spending is open. */
export const frozenReason = (frozen: SpendingFrozenBy | undefined): DecisionReason | undefined =>
  frozen === undefined
    ? undefined
    : {
        code: "spending_frozen",
        message: `${frozen.scope === "team" ? "the team's" : "this key's"} spending is frozen since ${frozen.frozenAt}: ${frozen.reason}`
      }

/** The amount from which requests go to approval: the policy's threshold or the first approval tier, the lower. */
export const approvalThresholdOf = (
  policy: SpendPolicy,
  tiers: ReadonlyArray<ApprovalTier> | undefined
): number | undefined => {
  const first = tiers?.[0]?.minAmount
  if (first === undefined) return policy.approvalThreshold
  return policy.approvalThreshold === undefined ? first : Math.min(first, policy.approvalThreshold)
}

const quote = (value: string): string => JSON.stringify(value)

/** Why the policy's merchant lists refuse `name` (blocked, or not on the allow-list); none when they let it pass. */
export const merchantReason = (policy: SpendPolicy, name: string): DecisionReason | undefined => {
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

/** Why the policy's category lists refuse the category; none when they let it pass. */
export const categoryReason = (policy: SpendPolicy, rawCategory: string | undefined): DecisionReason | undefined => {
  const category = normalizeCategory(rawCategory) ?? undefined
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

const MILLIS_PER_HOUR = 3_600_000

const budgets = {
  day: { code: "daily_budget_exceeded", label: "daily", field: "dailyBudget" },
  week: { code: "weekly_budget_exceeded", label: "weekly", field: "weeklyBudget" },
  month: { code: "monthly_budget_exceeded", label: "monthly", field: "monthlyBudget" },
  year: { code: "yearly_budget_exceeded", label: "yearly", field: "yearlyBudget" },
  lifetime: { code: "lifetime_budget_exceeded", label: "lifetime", field: "lifetimeBudget" }
} as const satisfies Record<BudgetInterval, { code: DecisionReasonCode; label: string; field: keyof SpendPolicy }>

/** The figures of a limit of `limit` of which `used` is used, asked for `requested` more. */
const figures = (limit: number, used: number, requested: number) => ({
  limit,
  used,
  requested,
  remaining: Math.max(0, limit - used)
})

/** Where the period of `interval` that `now` falls in ends (ISO 8601); none for lifetime. */
const resetOf = (interval: BudgetInterval, now: number): { readonly resetsAt?: string } =>
  interval === "lifetime" ? {} : { resetsAt: isoOfMillis(nextPeriodStart(interval, now)) }

const budgetReason = (
  interval: BudgetInterval,
  budget: number | undefined,
  spent: number,
  amount: number,
  now: number,
  category?: string
): DecisionReason | undefined => {
  if (budget === undefined || amount <= budget - spent) return undefined
  const { code, label } = budgets[interval]
  const what = category === undefined ? label : `${label} ${quote(category)}`
  return {
    code: category === undefined ? code : "category_budget_exceeded",
    message: `${what} spend ${spent} plus amount ${amount} is ${spent + amount}, which exceeds the ${what} budget ${budget}`,
    ...figures(budget, spent, amount),
    interval,
    ...(category === undefined ? {} : { category }),
    ...resetOf(interval, now)
  }
}

const velocityReasons = (input: SpendEvaluationInput): ReadonlyArray<DecisionReason> => {
  const { policy, now } = input
  const reasons: Array<DecisionReason> = []
  const perHour = policy.maxRequestsPerHour
  if (perHour !== undefined) {
    const lastHour = input.recentRequests.filter((at) => at > now - MILLIS_PER_HOUR).toSorted((a, b) => b - a)
    if (lastHour.length >= perHour) {
      const nextAllowedAt = perHour === 0 ? undefined : (lastHour[perHour - 1] ?? now) + MILLIS_PER_HOUR
      reasons.push({
        code: "velocity_exceeded",
        message: `${lastHour.length} requests in the last hour reach the limit of ${perHour} requests per hour`,
        ...figures(perHour, lastHour.length, 1),
        interval: "hour",
        ...(nextAllowedAt === undefined ? {} : { nextAllowedAt: isoOfMillis(nextAllowedAt) })
      })
    }
  }
  const perDay = policy.maxRequestsPerDay
  if (perDay !== undefined && input.requestsToday >= perDay) {
    const resetsAt = isoOfMillis(nextUtcDayStart(now))
    reasons.push({
      code: "velocity_exceeded",
      message: `${input.requestsToday} requests today reach the limit of ${perDay} requests per day`,
      ...figures(perDay, input.requestsToday, 1),
      interval: "day",
      resetsAt,
      ...(perDay === 0 ? {} : { nextAllowedAt: resetsAt })
    })
  }
  return reasons
}

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
  const { amount, available, policy, now } = input
  const category = normalizeCategory(input.merchant.category)
  const categoryBudgets = category === null ? [] : (policy.categoryBudgets ?? []).filter((b) => b.category === category)
  // Who approves the request when a rule routes it to approval: what its amount's tier requires.
  const { approvers } = approvalTierOf(input.approvalTiers ?? [], amount)
  const candidates: ReadonlyArray<DecisionReason | undefined> = [
    frozenReason(input.frozen),
    merchantReason(policy, input.merchant.name),
    categoryReason(policy, input.merchant.category),
    hoursReason(policy, input.now, "deny", approvers),
    policy.perRequestLimit !== undefined && !(amount <= policy.perRequestLimit)
      ? {
          code: "amount_over_limit",
          message: `amount ${amount} exceeds the per-request limit ${policy.perRequestLimit}`,
          limit: policy.perRequestLimit,
          requested: amount
        }
      : undefined,
    ...velocityReasons(input),
    ...BUDGET_INTERVALS.map((interval) =>
      budgetReason(interval, policy[budgets[interval].field], input.spent[interval], amount, now)
    ),
    ...BUDGET_INTERVALS.flatMap((interval) =>
      categoryBudgets
        .filter((b) => b.interval === interval)
        .map((b) => budgetReason(interval, b.amount, input.categorySpent[interval], amount, now, b.category))
    ),
    !(available >= amount)
      ? {
          code: "insufficient_funds",
          message: `available balance ${available} is below the amount ${amount}`,
          available,
          requested: amount
        }
      : undefined
  ]
  const denials = candidates.filter((reason): reason is DecisionReason => reason !== undefined)
  if (denials.length > 0) return { outcome: "denied", reasons: denials }
  const approvalThreshold = approvalThresholdOf(policy, input.approvalTiers)
  const toApproval = [
    hoursReason(policy, input.now, "approval", approvers),
    newMerchantReason(input, approvers),
    approvalThreshold !== undefined && amount >= approvalThreshold
      ? {
          code: "approval_threshold" as const,
          message: `amount ${amount} is at or above the approval threshold ${approvalThreshold}`,
          limit: approvalThreshold,
          requested: amount,
          approvers
        }
      : undefined
  ].filter((reason): reason is DecisionReason => reason !== undefined)
  if (toApproval.length > 0) return { outcome: "pending_approval", reasons: toApproval }
  return { outcome: "approved", reasons: [] }
}
