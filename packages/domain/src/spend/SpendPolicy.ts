import { Schema } from "effect"
import { RequiredApprovers } from "../approvals/model.ts"
import { AmountMinor } from "../shared/model.ts"
import { AllowedHours, OutsideHours } from "./AllowedHours.ts"

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
  code: DecisionReasonCode.annotate({
    description: "The stable code of the rule that fired; branch on it, not on `message`.",
    examples: ["amount_over_limit"]
  }),
  message: Schema.String.annotate({
    description: "What happened, for people; its wording may change.",
    examples: ["The amount is over the per-request limit of 50.00 USD."]
  }),
  /** The limit that was crossed: a budget, the per-request limit, a request count, the approval threshold. */
  limit: Schema.optionalKey(
    Schema.Int.annotate({
      description:
        "The limit that was crossed: a budget, the per-request limit or the approval threshold in minor units of the currency (1999 is 19.99 USD); a request count for `velocity_exceeded`.",
      examples: [5000]
    })
  ),
  /** What the period has used of `limit` before this request. */
  used: Schema.optionalKey(
    Schema.Int.annotate({
      description: "What the period had used of `limit` before this request (minor units, or a count).",
      examples: [4000]
    })
  ),
  /** What this request asks for (its amount; 1 for a request count). */
  requested: Schema.optionalKey(
    Schema.Int.annotate({
      description: "What this request asks for: its amount in minor units (1 for a request count).",
      examples: [1999]
    })
  ),
  /** What is left of `limit` in the period, never below 0. */
  remaining: Schema.optionalKey(
    Schema.Int.annotate({
      description: "What is left of `limit` in the period, never below 0 (minor units, or a count).",
      examples: [1000]
    })
  ),
  /** The spend account's available balance (`insufficient_funds`). */
  available: Schema.optionalKey(
    Schema.Int.annotate({
      description:
        "The spend account's available balance in minor units of the currency (1999 is 19.99 USD) (`insufficient_funds`).",
      examples: [1500]
    })
  ),
  /** The period a budget or a velocity limit counts over. */
  interval: Schema.optionalKey(
    UsageInterval.annotate({
      description:
        "The period a budget or a velocity limit counts over; `lifetime` never resets, `hour` is a rolling hour.",
      examples: ["day"]
    })
  ),
  /** The category of a category budget. */
  category: Schema.optionalKey(
    Schema.String.annotate({ description: "The category of a category budget.", examples: ["software"] })
  ),
  /** When the period's usage starts again from 0 (ISO 8601); absent for lifetime budgets. */
  resetsAt: Schema.optionalKey(
    Schema.String.annotate({
      description: "When the period's usage starts again from 0 (ISO 8601, UTC); absent for lifetime budgets.",
      examples: ["2026-03-01T12:00:00.000Z"]
    })
  ),
  /** The earliest moment a request like this one can be allowed (velocity, allowed hours), ISO 8601. */
  nextAllowedAt: Schema.optionalKey(
    Schema.String.annotate({
      description:
        "The earliest moment a request like this one can be allowed (velocity, allowed hours), ISO 8601, UTC.",
      examples: ["2026-03-01T12:00:00.000Z"]
    })
  ),
  /** Who must approve and how many (reasons that route to approval). */
  approvers: Schema.optionalKey(
    RequiredApprovers.annotate({ description: "Who must approve and how many (reasons that route to approval)." })
  )
})

/** One rule that fired, with its code, message and figures. */
export type DecisionReason = typeof DecisionReason.Type

/**
 * The policy versions a decision was made under: the spending key's own (null for a team API key) and the team
 * defaults' (null while the team never set any, which is `{}`). The key's policy over the team's is the policy applied.
 */
export const DecisionPolicyVersions = Schema.Struct({
  spendingKey: Schema.NullOr(Schema.Int).annotate({
    description: "The version of the spending key's own policy; null for a team API key.",
    examples: [3]
  }),
  team: Schema.NullOr(Schema.Int).annotate({
    description: "The version of the team's default policy; null while the team never set one.",
    examples: [1]
  })
})

/** The policy versions a decision was made under. */
export type DecisionPolicyVersions = typeof DecisionPolicyVersions.Type

/** The policy decision for a spend request; `policyVersions` is absent on decisions made before versions existed. */
export const SpendDecision = Schema.Struct({
  outcome: SpendOutcome.annotate({
    description: "What policy decided: `approved`, `denied` or `pending_approval` (a person decides).",
    examples: ["approved"]
  }),
  reasons: Schema.Array(DecisionReason).annotate({
    description: "Every rule that fired, with its figures; empty when nothing did."
  }),
  policyVersions: Schema.optionalKey(
    DecisionPolicyVersions.annotate({
      description: "The policy versions the decision was made under; absent on decisions made before versions existed."
    })
  )
})

/** The policy decision for a spend request. */
export type SpendDecision = typeof SpendDecision.Type

/** Running totals of one credential (or of one of its categories) in the budget intervals a moment falls in. */
export type UsageTotals = Readonly<Record<BudgetInterval, number>>

/** Totals of nothing spent. */
export const NO_USAGE: UsageTotals = { day: 0, week: 0, month: 0, year: 0, lifetime: 0 }

/** Who froze spending, why and since when, as `spending_frozen` reports it. */
export interface SpendingFrozenBy {
  readonly scope: "team" | "spending_key"
  readonly reason: string
  readonly frozenAt: string
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

/** Epoch millis at which a pending approval created at `createdAtMillis` expires under `policy`. */
export const approvalExpiresAt = (createdAtMillis: number, policy: Pick<SpendPolicy, "approvalTtlSeconds">): number =>
  createdAtMillis + (policy.approvalTtlSeconds ?? DEFAULT_APPROVAL_TTL_SECONDS) * 1000
