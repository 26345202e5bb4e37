import { DateTime, Schema } from "effect"
import { type ApprovalTier, approvalTierOf, RequiredApprovers } from "../approvals/model.ts"
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

/** The periods a budget counts over: UTC day, ISO week (from Monday, UTC), UTC month, UTC year, or ever. */
export const BudgetInterval = Schema.Literals(["day", "week", "month", "year", "lifetime"])

/** The period a budget counts over. */
export type BudgetInterval = typeof BudgetInterval.Type

/** Every budget interval, in the order budgets are evaluated and reported. */
export const BUDGET_INTERVALS: ReadonlyArray<BudgetInterval> = ["day", "week", "month", "year", "lifetime"]

/** A budget of one category over one interval, e.g. travel 50,000 a month. */
export const CategoryBudget = Schema.Struct({
  category: CategorySlug,
  interval: BudgetInterval,
  amount: AmountMinor
})

/** A budget of one category over one interval. */
export type CategoryBudget = typeof CategoryBudget.Type

const CategoryBudgets = Schema.Array(CategoryBudget).check(
  Schema.isMaxLength(100, { message: "expected at most 100 category budgets" }),
  Schema.makeFilter(
    (budgets) => {
      const seen = new Set<string>()
      for (const [i, b] of budgets.entries()) {
        const pair = `${b.category}|${b.interval}`
        if (seen.has(pair))
          return { path: [i], issue: `a second ${b.interval} budget for category ${JSON.stringify(b.category)}` }
        seen.add(pair)
      }
      return undefined
    },
    { description: "at most one budget per category and interval" }
  )
)

/** Most requests a velocity limit may allow per period. */
export const MAX_REQUEST_COUNT = 1_000_000

/** A velocity limit: at most this many requests per period. */
export const RequestCount = Schema.Int.check(
  Schema.isBetween(
    { minimum: 0, maximum: MAX_REQUEST_COUNT },
    { message: `expected a whole number of requests between 0 and ${MAX_REQUEST_COUNT}` }
  )
)

const described = <S extends Schema.Top>(schema: S, description: string) => schema.annotate({ description })

const budgetText = (period: string) =>
  `Most the key may spend (approved and pending, minor units) per ${period}; above it the request is denied.`

/** Spend policy of a spending key or team defaults; every field is optional. */
export const SpendPolicy = Schema.Struct({
  perRequestLimit: Schema.optionalKey(
    described(AmountMinor, "Largest amount one request may ask for (minor units); above it: `amount_over_limit`.")
  ),
  dailyBudget: Schema.optionalKey(described(AmountMinor, budgetText("UTC day"))),
  weeklyBudget: Schema.optionalKey(described(AmountMinor, budgetText("ISO week (Monday 00:00 UTC to Monday)"))),
  monthlyBudget: Schema.optionalKey(described(AmountMinor, budgetText("UTC calendar month"))),
  yearlyBudget: Schema.optionalKey(described(AmountMinor, budgetText("UTC calendar year"))),
  lifetimeBudget: Schema.optionalKey(described(AmountMinor, `${budgetText("key's whole life")} It never resets.`)),
  categoryBudgets: Schema.optionalKey(
    described(
      CategoryBudgets,
      'Budgets of one category each, e.g. `{category: "travel", interval: "month", amount: 50000}`: the approved ' +
        "and pending spend of requests in that category (normalised: trimmed, lower case) may not exceed `amount` in " +
        "the interval (`day`, `week`, `month`, `year`, `lifetime`); above it: `category_budget_exceeded`. At most one " +
        "budget per category and interval."
    )
  ),
  maxRequestsPerHour: Schema.optionalKey(
    described(
      RequestCount,
      "Most requests (every outcome but denied: spend requests, transfers, checkout intents) per rolling hour; " +
        "beyond it: `velocity_exceeded` with `nextAllowedAt`."
    )
  ),
  maxRequestsPerDay: Schema.optionalKey(
    described(
      RequestCount,
      "Most requests (every outcome but denied) per UTC day; beyond it: `velocity_exceeded` until the next UTC day."
    )
  ),
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

/**
 * The policy versions a decision was made under: the spending key's own (null for a team API key) and the team
 * defaults' (null while the team never set any, which is `{}`). The key's policy over the team's is the policy applied.
 */
export const DecisionPolicyVersions = Schema.Struct({
  spendingKey: Schema.NullOr(Schema.Int),
  team: Schema.NullOr(Schema.Int)
})

/** The policy versions a decision was made under. */
export type DecisionPolicyVersions = typeof DecisionPolicyVersions.Type

/** The policy decision for a spend request; `policyVersions` is absent on decisions made before versions existed. */
export const SpendDecision = Schema.Struct({
  outcome: SpendOutcome,
  reasons: Schema.Array(DecisionReason),
  policyVersions: Schema.optionalKey(DecisionPolicyVersions)
})

/** The policy decision for a spend request. */
export type SpendDecision = typeof SpendDecision.Type

/** Running totals of one credential (or of one of its categories) in the budget intervals a moment falls in. */
export type UsageTotals = Readonly<Record<BudgetInterval, number>>

/** Totals of nothing spent. */
export const NO_USAGE: UsageTotals = { day: 0, week: 0, month: 0, year: 0, lifetime: 0 }

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

/** Who froze spending, why and since when, as `spending_frozen` reports it. */
export interface SpendingFrozenBy {
  readonly scope: "team" | "spending_key"
  readonly reason: string
  readonly frozenAt: string
}

const frozenReason = (frozen: SpendingFrozenBy | undefined): DecisionReason | undefined =>
  frozen === undefined
    ? undefined
    : {
        code: "spending_frozen",
        message: `${frozen.scope === "team" ? "the team's" : "this key's"} spending is frozen since ${frozen.frozenAt}: ${frozen.reason}`
      }

/** The amount from which requests go to approval: the policy's threshold or the first approval tier, the lower. */
const approvalThresholdOf = (
  policy: SpendPolicy,
  tiers: ReadonlyArray<ApprovalTier> | undefined
): number | undefined => {
  const first = tiers?.[0]?.minAmount
  if (first === undefined) return policy.approvalThreshold
  return policy.approvalThreshold === undefined ? first : Math.min(first, policy.approvalThreshold)
}

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

/** The category a request is governed (and its category budgets counted) under: trimmed, lower case; none if blank. */
export const normalizeCategory = (category: string | null | undefined): string | null =>
  category?.trim().toLowerCase() || null

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

const MILLIS_PER_DAY = 86_400_000

const utcMonthStartOffset = (epochMillis: number, monthOffset: number): number =>
  DateTime.toEpochMillis(
    DateTime.add(DateTime.startOf(DateTime.makeUnsafe(epochMillis), "month"), { months: monthOffset })
  )

const utcYearStartOffset = (epochMillis: number, yearOffset: number): number =>
  DateTime.toEpochMillis(
    DateTime.add(DateTime.startOf(DateTime.makeUnsafe(epochMillis), "year"), { years: yearOffset })
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

/** Epoch millis of Monday 00:00:00.000 UTC of the ISO week containing `epochMillis`. */
export const utcWeekStart = (epochMillis: number): number => {
  const day = utcDayStart(epochMillis)
  // 1970-01-01 was a Thursday, 3 days after the Monday that starts its ISO week.
  const sinceMonday = (((Math.floor(day / MILLIS_PER_DAY) + 3) % 7) + 7) % 7
  return day - sinceMonday * MILLIS_PER_DAY
}

/** Epoch millis of 00:00:00.000 UTC on January 1st of the year containing `epochMillis`. */
export const utcYearStart = (epochMillis: number): number => utcYearStartOffset(epochMillis, 0)

/** Where the periods of every interval start: lifetime's never moves (the epoch). */
export const periodStart = (interval: BudgetInterval, epochMillis: number): number => {
  switch (interval) {
    case "day":
      return utcDayStart(epochMillis)
    case "week":
      return utcWeekStart(epochMillis)
    case "month":
      return utcMonthStart(epochMillis)
    case "year":
      return utcYearStart(epochMillis)
    case "lifetime":
      return 0
  }
}

/** Where the period of `interval` after the one containing `epochMillis` starts (lifetime: never, +Infinity). */
export const nextPeriodStart = (interval: BudgetInterval, epochMillis: number): number => {
  switch (interval) {
    case "day":
      return nextUtcDayStart(epochMillis)
    case "week":
      return utcWeekStart(epochMillis) + 7 * MILLIS_PER_DAY
    case "month":
      return nextUtcMonthStart(epochMillis)
    case "year":
      return utcYearStartOffset(epochMillis, 1)
    case "lifetime":
      return Number.POSITIVE_INFINITY
  }
}

/** Epoch millis at which a pending approval created at `createdAtMillis` expires under `policy`. */
export const approvalExpiresAt = (createdAtMillis: number, policy: Pick<SpendPolicy, "approvalTtlSeconds">): number =>
  createdAtMillis + (policy.approvalTtlSeconds ?? DEFAULT_APPROVAL_TTL_SECONDS) * 1000
