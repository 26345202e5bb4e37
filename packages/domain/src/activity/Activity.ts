import { Clock, Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { AgentKeysRepo, type SpendingKey } from "../access/index.ts"
import type { ApprovalView } from "../approvals/model.ts"
import { Checkout, type CheckoutIntent, type CheckoutIntentId, CheckoutIntentsRepo } from "../checkout/index.ts"
import { UsersRepo } from "../identity/index.ts"
import type { LedgerTransaction } from "../ledger/model.ts"
import {
  isoOfMillis,
  type Mode,
  mergedPageRows,
  type PageRequest,
  type PersistenceUnavailable,
  type TeamId,
  UserId
} from "../shared/index.ts"
import {
  effectivePolicy,
  type SpendRequest,
  type SpendRequestId,
  SpendRequests,
  SpendRequestsRepo,
  usageWindows,
  utcDayStart
} from "../spend/index.ts"
import { type Transfer, type TransferId, Transfers, TransfersRepo } from "../transfers/index.ts"
import {
  ACTIVITY_STATUSES,
  ActivityFilterInvalid,
  type ActivityItem,
  type ActivityKind,
  ActivityNotFound,
  type KeySpendStats,
  type SpendStats,
  type TrailStep
} from "./ActivityItem.ts"
import { ActivityRepo } from "./ActivityRepo.ts"
import { type TrailInput, trailOf } from "./Trail.ts"

/** Which items the activity list holds; every filter is optional. */
export interface ActivityQuery {
  readonly kind?: ActivityKind | undefined
  /** The item's own status; kinds that never take it are left out. */
  readonly status?: string | undefined
  readonly keyId?: string | undefined
  /** Created at or after (ISO 8601). */
  readonly from?: string | undefined
  /** Created strictly before (ISO 8601). */
  readonly to?: string | undefined
  /** Both modes when absent. */
  readonly mode?: Mode | undefined
}

/** An item with what happened to it and the money it moved. */
export interface ActivityDetail {
  readonly item: ActivityItem
  readonly trail: ReadonlyArray<TrailStep>
  readonly ledgerTransactions: ReadonlyArray<LedgerTransaction>
}

const KINDS: ReadonlyArray<ActivityKind> = ["spend_request", "transfer", "checkout_intent"]
const MILLIS_PER_DAY = 86_400_000
const utcDate = (millis: number) => isoOfMillis(millis).slice(0, 10)
/** A bound of the window in the stored form (UTC, milliseconds), or a refusal naming it when it is no instant. */
const bound = (field: "from" | "to", iso: string | undefined) =>
  iso === undefined
    ? Effect.succeed(undefined)
    : Option.match(DateTime.make(iso), {
        onNone: () => Effect.fail(new ActivityFilterInvalid({ field, message: "expected an ISO 8601 date-time" })),
        onSome: (at) => Effect.succeed(isoOfMillis(DateTime.toEpochMillis(at)))
      })

type KeyNames = ReadonlyMap<string, string>

const spendItem = (sr: SpendRequest, names: KeyNames): ActivityItem => ({
  object: "activity",
  kind: "spend_request",
  id: sr.id,
  mode: sr.mode,
  keyId: sr.spendingKeyId,
  keyName: names.get(sr.spendingKeyId) ?? null,
  amount: sr.amount,
  currency: sr.currency,
  status: sr.status,
  counterparty: sr.merchant.name,
  purpose: sr.purpose,
  createdAt: sr.createdAt,
  approvalId: sr.approval?.id ?? null
})

const transferItem = (t: Transfer, names: KeyNames): ActivityItem => ({
  object: "activity",
  kind: "transfer",
  id: t.id,
  mode: t.mode,
  keyId: t.spendingKeyId,
  keyName: names.get(t.spendingKeyId) ?? null,
  amount: t.amount,
  currency: t.currency,
  status: t.status,
  counterparty: t.recipientAddress,
  purpose: t.memo,
  createdAt: t.createdAt,
  approvalId: t.approval?.id ?? null
})

const intentItem = (i: CheckoutIntent, names: KeyNames): ActivityItem => ({
  object: "activity",
  kind: "checkout_intent",
  id: i.id,
  mode: i.mode,
  keyId: i.spendingKeyId,
  keyName: names.get(i.spendingKeyId) ?? null,
  amount: i.amount,
  currency: i.currency,
  status: i.status,
  counterparty: i.merchant.name,
  purpose: i.purpose,
  createdAt: i.createdAt,
  approvalId: i.approval?.id ?? null
})

/** The step a final status adds to a trail after the approval's steps, per kind. */
const finalStep = (kind: ActivityKind, status: string, subject: { readonly capturedAmount?: number | null }) => {
  if (kind === "checkout_intent" && status === "completed") {
    return subject.capturedAmount == null
      ? { action: "captured", detail: null }
      : { action: "captured", detail: `captured ${subject.capturedAmount}`, amount: subject.capturedAmount }
  }
  if (kind === "transfer" && (status === "completed" || status === "declined")) return { action: status, detail: null }
  return status === "expired" || status === "canceled" ? { action: status, detail: null } : undefined
}

/**
 * The team-wide activity views of the dashboard (a read model over spend requests, outgoing transfers and checkout
 * intents): the merged list, an item's trail and ledger transactions, and each key's spend statistics.
 */
export class Activity extends Context.Service<
  Activity,
  {
    /** The page's items of every kind asked for, newest first on (createdAt, id), up to `page.limit + 1`. */
    readonly list: (
      teamId: TeamId,
      query: ActivityQuery,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<ActivityItem>, ActivityFilterInvalid | PersistenceUnavailable>
    /** One item of the team as of now, with its trail (oldest first) and the ledger transactions it caused. */
    readonly detail: (
      teamId: TeamId,
      kind: ActivityKind,
      id: string
    ) => Effect.Effect<ActivityDetail, ActivityNotFound | PersistenceUnavailable>
    /**
     * Each unrevoked key of `mode`: what it spent per UTC day of the last `days` days (`ActivityRepo.dailySpend`), and
     * its day's and month's budget usage as a spend decision reads it now (`SpendRequestsRepo.readForDecision`).
     */
    readonly spendStats: (
      teamId: TeamId,
      options: { readonly days: number; readonly mode: Mode }
    ) => Effect.Effect<SpendStats, PersistenceUnavailable>
  }
>()("@svc/domain/Activity") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* ActivityRepo
    const keys = yield* AgentKeysRepo
    const users = yield* UsersRepo
    const spend = yield* SpendRequests
    const spendRepo = yield* SpendRequestsRepo
    const transfers = yield* Transfers
    const transfersRepo = yield* TransfersRepo
    const checkout = yield* Checkout
    const intentsRepo = yield* CheckoutIntentsRepo

    /** The names of the team's spending keys and team API keys (which may ask with `spend.write`), by id. */
    const keyNames = (teamId: TeamId) =>
      Effect.map(
        Effect.all([keys.listSpendingKeys(teamId), keys.listTeamKeys(teamId)]),
        ([spending, team]): KeyNames => new Map([...spending, ...team].map((k) => [k.id, k.name]))
      )

    const list = Effect.fn("Activity.list")(function* (teamId: TeamId, query: ActivityQuery, page: PageRequest) {
      const from = yield* bound("from", query.from)
      const to = yield* bound("to", query.to)
      if (from !== undefined && to !== undefined && from >= to) {
        return yield* new ActivityFilterInvalid({ field: "from", message: "must be before `to`" })
      }
      const status = query.status
      const kinds = (query.kind === undefined ? KINDS : [query.kind]).filter(
        (kind) => status === undefined || ACTIVITY_STATUSES[kind].includes(status)
      )
      if (kinds.length === 0) {
        return yield* new ActivityFilterInvalid({
          field: "status",
          message: `no ${query.kind ?? "item"} takes the status ${JSON.stringify(status)}`
        })
      }
      const filter = {
        mode: query.mode,
        spendingKeyId: query.keyId,
        createdFrom: from,
        createdBefore: to
      }
      const names = yield* keyNames(teamId)
      const lists = yield* Effect.forEach(
        kinds,
        (kind): Effect.Effect<ReadonlyArray<ActivityItem>, PersistenceUnavailable> => {
          switch (kind) {
            case "spend_request":
              return Effect.map(
                spend.list(teamId, { ...filter, status: status as SpendRequest["status"] | undefined }, page),
                (rows) => rows.map((sr) => spendItem(sr, names))
              )
            case "transfer":
              return Effect.map(
                transfers.list(
                  teamId,
                  { ...filter, direction: "outgoing", status: status as Transfer["status"] | undefined },
                  page
                ),
                (rows) => rows.map((t) => transferItem(t, names))
              )
            case "checkout_intent":
              return Effect.map(
                checkout.list(teamId, { ...filter, status: status as CheckoutIntent["status"] | undefined }, page),
                (rows) => rows.map((i) => intentItem(i, names))
              )
          }
        },
        { concurrency: "unbounded" }
      )
      return mergedPageRows(page, lists)
    })

    /** The item as of now, with what its trail is built from; none when it is not the team's. */
    const found = (teamId: TeamId, kind: ActivityKind, id: string, names: KeyNames) => {
      const none = Effect.succeed(Option.none<readonly [ActivityItem, TrailInput]>())
      const trail = (
        subject: {
          readonly spendingKeyId: string
          readonly createdAt: string
          readonly updatedAt: string
          readonly status: string
          readonly decision: SpendRequest["decision"]
          readonly approval: ApprovalView | null
          readonly capturedAmount?: number | null
        },
        item: ActivityItem
      ) =>
        Option.some([
          item,
          {
            createdAt: subject.createdAt,
            updatedAt: subject.updatedAt,
            status: subject.status,
            requestedBy: names.get(subject.spendingKeyId) ?? subject.spendingKeyId,
            decision: subject.decision,
            approval: subject.approval,
            finalStep: finalStep(kind, subject.status, subject)
          }
        ] as const)
      switch (kind) {
        case "spend_request":
          return spend.get(teamId, undefined, id as SpendRequestId).pipe(
            Effect.map((sr) => trail(sr, spendItem(sr, names))),
            Effect.catchTag("SpendRequestNotFound", () => none)
          )
        case "transfer":
          return Effect.flatMap(transfersRepo.find(id as TransferId), (stored) =>
            Option.isNone(stored) || stored.value.senderTeamId !== teamId
              ? none
              : transfers.get(teamId, stored.value.mode, id).pipe(
                  Effect.map((t) => trail(t, transferItem(t, names))),
                  Effect.catchTag("TransferNotFound", () => none)
                )
          )
        case "checkout_intent":
          return Effect.flatMap(intentsRepo.find(id as CheckoutIntentId), (stored) =>
            Option.isNone(stored) || stored.value.teamId !== teamId
              ? none
              : checkout.get(teamId, stored.value.mode, id).pipe(
                  Effect.map((i) => trail(i, intentItem(i, names))),
                  Effect.catchTag("CheckoutIntentNotFound", () => none)
                )
          )
      }
    }

    const detail = Effect.fn("Activity.detail")(function* (teamId: TeamId, kind: ActivityKind, id: string) {
      const names = yield* keyNames(teamId)
      const hit = yield* found(teamId, kind, id, names)
      if (Option.isNone(hit)) return yield* new ActivityNotFound({ kind, id })
      const [item, input] = hit.value
      const userIds = new Set([
        ...(input.approval?.approvals.decisions.map((d) => d.userId) ?? []),
        ...(input.approval?.decidedBy == null ? [] : [input.approval.decidedBy])
      ])
      const emails = new Map<string, string>()
      for (const userId of userIds) {
        if (!Schema.is(UserId)(userId)) continue
        const user = yield* users.findById(userId)
        if (Option.isSome(user)) emails.set(userId, user.value.email)
      }
      return {
        item,
        trail: trailOf(input, (userId) => emails.get(userId) ?? userId),
        ledgerTransactions: yield* repo.ledgerTransactions(teamId, { kind, id: item.id, mode: item.mode })
      }
    })

    const keyStats = (
      teamId: TeamId,
      key: SpendingKey,
      now: number,
      daily: ReadonlyArray<{ readonly date: string; readonly amount: number }>
    ) =>
      Effect.map(
        spendRepo.readForDecision({
          teamId,
          mode: key.mode,
          accountId: key.accountId,
          spendingKeyId: key.id,
          windows: usageWindows(now, null),
          at: now,
          requestLimits: {}
        }),
        (inputs): KeySpendStats => {
          const policy = effectivePolicy(key.policy, inputs.teamPolicy)
          return {
            keyId: key.id,
            keyName: key.name,
            currency: Option.match(inputs.spendAccount, { onNone: () => "USD", onSome: (a) => a.account.currency }),
            daily,
            usedToday: inputs.spent.day,
            usedThisMonth: inputs.spent.month,
            dailyLimit: policy.dailyBudget ?? null,
            monthlyLimit: policy.monthlyBudget ?? null
          }
        }
      )

    const spendStats = Effect.fn("Activity.spendStats")(function* (
      teamId: TeamId,
      options: { readonly days: number; readonly mode: Mode }
    ) {
      const now = yield* Clock.currentTimeMillis
      const today = utcDayStart(now)
      const first = today - (options.days - 1) * MILLIS_PER_DAY
      const dates = Array.from({ length: options.days }, (_, i) => utcDate(first + i * MILLIS_PER_DAY))
      const live = (yield* keys.listSpendingKeys(teamId)).filter((k) => k.mode === options.mode && k.revokedAt === null)
      const spent = yield* repo.dailySpend(
        teamId,
        options.mode,
        isoOfMillis(first),
        isoOfMillis(today + MILLIS_PER_DAY)
      )
      const byKeyDay = new Map(spent.map((row) => [`${row.spendingKeyId}|${row.date}`, row.amount]))
      const stats = yield* Effect.forEach(live, (key) =>
        keyStats(
          teamId,
          key,
          now,
          dates.map((date) => ({ date, amount: byKeyDay.get(`${key.id}|${date}`) ?? 0 }))
        )
      )
      return {
        object: "spend_stats" as const,
        from: dates[0] ?? utcDate(today),
        to: utcDate(today),
        keys: stats
      }
    })

    return Activity.of({ list, detail, spendStats })
  })

  static readonly layer = Layer.effect(Activity, Activity.make)
}
