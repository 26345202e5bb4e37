import { Clock, Context, type Duration, Effect, Layer, Option, Schema } from "effect"
import type { AgentPrincipal } from "../access/model.ts"
import { DecidedMeanwhile } from "../approvals/index.ts"
import { type GovernedOperations, governedLifecycle, releasedHold } from "../governance/index.ts"
import { Ledger, type SettlementAccountMissing } from "../ledger/index.ts"
import { domainEvents, EventOutbox } from "../platform/index.ts"
import {
  isoOfMillis,
  JobsFence,
  millisOfIso,
  nowIso,
  type PersistenceUnavailable,
  periodicJob,
  Transactor
} from "../shared/index.ts"
import { normalizeMerchantName, SpendFreezesRepo, SpendRequestsRepo } from "../spend/index.ts"
import { CryptoDestinationsRepo, CryptoQuotesRepo } from "./CryptoRepos.ts"
import { CryptoDestinationNotFound } from "./Destination.ts"
import {
  type CryptoPayout,
  type CryptoPayoutEventType,
  CryptoPayoutId,
  CryptoPayoutInvalid,
  CryptoPayoutNotFound,
  CryptoPayoutNotPending,
  cryptoPayoutView
} from "./Payout.ts"
import { PayoutRail } from "./PayoutRail.ts"
import { type CryptoPayoutQuery, CryptoPayoutsRepo, type SubmittedPayout } from "./PayoutsRepo.ts"
import { CryptoQuoteId, CryptoQuoteNotFound, CryptoQuoteNotUsable, quotedTermsOf } from "./Quote.ts"

/** The category payouts are governed under: the policy's category rules and category budgets see them as this. */
export const CRYPTO_PAYOUT_CATEGORY = "crypto"

/**
 * The merchant a payout is governed as: `crypto:<network>:<address>`, so that merchant rules and the known-merchant
 * review see each destination address on each network as one payee.
 */
export const cryptoPayoutMerchant = (p: { readonly network: string; readonly address: string }) =>
  `crypto:${p.network}:${p.address}`

/** What an agent pays out: a quote it asked for. */
export interface CreateCryptoPayout {
  readonly quoteId: string
}

/** What one round of the worker did. */
export interface PayoutRound {
  readonly confirmed: number
  readonly failed: number
  readonly rebroadcast: number
  readonly submitted: number
}

type CreateError =
  | CryptoQuoteNotFound
  | CryptoQuoteNotUsable
  | CryptoDestinationNotFound
  | CryptoPayoutInvalid
  | SettlementAccountMissing
  | PersistenceUnavailable

/** Whether a payout awaiting approval is past its quote's or its approval's deadline at `nowMillis`. */
const isPayoutDue = (p: CryptoPayout, nowMillis: number) =>
  p.status === "pending_approval" &&
  (millisOfIso(p.quoteExpiresAt) <= nowMillis ||
    (p.approval !== null && p.approval.status === "pending" && millisOfIso(p.approval.expiresAt) <= nowMillis))

/** How many payouts one worker round takes from each queue. */
const ROUND_SIZE = 100

/**
 * Stablecoin payouts of quotes to allow-listed destinations (ADR 0032): the policy decides as for a spend request, the
 * amount is held at creation and posted once the rail confirms the transfer, or released once when the payout ends
 * otherwise, in the transaction that changes the status. The worker submits each payout at most once: the signed
 * transfer is stored before its first broadcast, and only that transfer is ever broadcast again; it is stored only
 * while this process still leads the background jobs (`JobsFence`), so two workers never sign with one nonce.
 */
export class CryptoPayouts extends Context.Service<
  CryptoPayouts,
  GovernedOperations<CryptoPayout, CryptoPayoutQuery, CryptoPayoutNotFound, CryptoPayoutNotPending> & {
    readonly create: (agent: AgentPrincipal, input: CreateCryptoPayout) => Effect.Effect<CryptoPayout, CreateError>
    /** The agent withdraws a payout the rail does not have yet; its hold is released. */
    readonly cancel: (
      agent: AgentPrincipal,
      id: string
    ) => Effect.Effect<CryptoPayout, CryptoPayoutNotFound | CryptoPayoutNotPending | PersistenceUnavailable>
    /**
     * One round of the worker: reconciles every submitted payout with the rail first (confirmed: the hold posted;
     * failed: released; unknown to the network: the stored transfer broadcast again), then submits the queued ones one
     * at a time (signed, stored, committed, and only then broadcast).
     */
    readonly processDue: Effect.Effect<PayoutRound, PersistenceUnavailable>
  }
>()("@svc/domain/CryptoPayouts") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* CryptoPayoutsRepo
    const quotes = yield* CryptoQuotesRepo
    const destinations = yield* CryptoDestinationsRepo
    const spendRepo = yield* SpendRequestsRepo
    const ledger = yield* Ledger
    const outbox = yield* EventOutbox
    const transactor = yield* Transactor
    const rail = yield* PayoutRail
    const fence = yield* JobsFence

    const publish = (p: CryptoPayout, types: ReadonlyArray<CryptoPayoutEventType>) =>
      Effect.flatMap(nowIso, (createdAt) =>
        domainEvents({ teamId: p.teamId, mode: p.mode, data: cryptoPayoutView(p), createdAt }, types)
      ).pipe(Effect.flatMap((events) => outbox.publish(...events)))

    const kernel = yield* governedLifecycle(
      { budgets: spendRepo, freezes: yield* SpendFreezesRepo },
      {
        name: "CryptoPayouts",
        type: "crypto_payout",
        repo,
        id: { make: CryptoPayoutId.make, is: Schema.is(CryptoPayoutId) },
        category: CRYPTO_PAYOUT_CATEGORY,
        whenApproved: "hold",
        approvedStatus: "pending",
        approvingTeam: (p) => p.teamId,
        party: (p, teamId) => p.teamId === teamId,
        notFound: (id) => new CryptoPayoutNotFound({ id }),
        notPending: (p, status) => new CryptoPayoutNotPending({ id: p.id, status }),
        invalid: (field, message) => new CryptoPayoutInvalid({ field, message }),
        isDue: isPayoutDue,
        ended: (status: "canceled" | "expired" | "denied" | "failed", now, failureReason) => ({
          status,
          failureReason,
          completedAt: status === "failed" ? now : null,
          updatedAt: now
        }),
        approvedAt: (now) =>
          Effect.succeed({
            status: "pending" as const,
            failureReason: null,
            completedAt: null,
            updatedAt: isoOfMillis(now)
          }),
        released: (p) => releasedHold(ledger, p),
        publish: (p, types) =>
          publish(
            p,
            types.map((type) => `crypto_payout.${type}` as const)
          )
      }
    )

    const create = Effect.fn("CryptoPayouts.create")(function* (agent: AgentPrincipal, input: CreateCryptoPayout) {
      const notFound = new CryptoQuoteNotFound({ id: input.quoteId })
      if (!Schema.is(CryptoQuoteId)(input.quoteId)) return yield* notFound
      const quoteId = input.quoteId
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const locked = yield* quotes.lock(quoteId)
          if (
            Option.isNone(locked) ||
            locked.value.teamId !== agent.teamId ||
            locked.value.mode !== agent.mode ||
            locked.value.spendingKeyId !== agent.keyId
          ) {
            return yield* notFound
          }
          const quote = locked.value
          if (quote.payoutId !== null) return yield* new CryptoQuoteNotUsable({ id: quote.id, reason: "used" })
          if (millisOfIso(quote.expiresAt) <= now) {
            return yield* new CryptoQuoteNotUsable({ id: quote.id, reason: "expired" })
          }
          const destination = yield* destinations.find(quote.destinationId)
          if (
            Option.isNone(destination) ||
            destination.value.removedAt !== null ||
            destination.value.teamId !== agent.teamId ||
            destination.value.mode !== agent.mode
          ) {
            return yield* new CryptoDestinationNotFound({ id: quote.destinationId })
          }
          const start = yield* kernel.decide(agent, now, {
            amount: quote.amount,
            currency: quote.currency,
            merchant: cryptoPayoutMerchant(quote)
          })
          const payout: CryptoPayout = {
            id: start.id,
            teamId: agent.teamId,
            mode: agent.mode,
            status: start.status,
            quoteId: quote.id,
            ...quotedTermsOf(quote),
            accountId: start.account.id,
            spendingKeyId: agent.keyId,
            decision: start.decision,
            approval: start.approvalView,
            holdTransactionId: start.ledgerTransaction?.id ?? null,
            txHash: null,
            failureReason: null,
            quoteExpiresAt: quote.expiresAt,
            submittedAt: null,
            completedAt: null,
            createdAt: start.createdAt,
            updatedAt: start.createdAt
          }
          if (Option.isNone(yield* quotes.markUsed(quote.id, payout.id, start.createdAt))) {
            // Locked above and unused then: only a writer ignoring the lock could have used it meanwhile.
            return yield* new CryptoQuoteNotUsable({ id: quote.id, reason: "used" })
          }
          return yield* kernel.record(payout, start)
        })
      )
    })

    const cancel = Effect.fn("CryptoPayouts.cancel")(function* (agent: AgentPrincipal, id: string) {
      const p = yield* kernel.current(yield* kernel.found(agent.teamId, agent.mode, id))
      if (p.status !== "pending_approval" && p.status !== "pending") {
        return yield* new CryptoPayoutNotPending({ id: p.id, status: p.status })
      }
      return yield* kernel.cancel(p)
    })

    /** A submitted payout the rail confirmed: the hold posted, the destination known to the team, once. */
    const confirm = (p: CryptoPayout) =>
      transactor
        .withTransaction(
          Effect.gen(function* () {
            const now = yield* nowIso
            const updated = yield* repo.transition(p.id, ["submitted"], {
              status: "confirmed",
              failureReason: null,
              completedAt: now,
              updatedAt: now
            })
            if (Option.isNone(updated)) return yield* new DecidedMeanwhile()
            if (p.holdTransactionId !== null) yield* ledger.postHold(p.teamId, p.holdTransactionId)
            yield* spendRepo.rememberMerchants([
              { teamId: p.teamId, mode: p.mode, merchant: normalizeMerchantName(cryptoPayoutMerchant(p)), at: now }
            ])
            yield* publish(updated.value, ["crypto_payout.confirmed"])
            return updated.value
          })
        )
        .pipe(
          Effect.catchTags({
            HoldAlreadyResolved: () => Effect.fail(new DecidedMeanwhile()),
            HoldNotFound: Effect.die
          })
        )

    const logRail = (p: CryptoPayout, step: string) => (e: { readonly message: string }) =>
      Effect.logWarning(`crypto payout ${p.id}: the rail could not ${step}; trying again next round`, e.message)

    /** Where the rail has a submitted payout, acted upon; which of `PayoutRound`'s counters it moves, if any. */
    const reconcile = ({ payout: p, prepared }: SubmittedPayout) =>
      Effect.gen(function* () {
        const status = yield* rail.status(p.network, prepared)
        switch (status._tag) {
          case "confirmed":
            return yield* Effect.as(confirm(p), "confirmed" as const)
          case "failed":
            return yield* Effect.as(
              kernel.release(p, ["submitted"], "failed", Effect.void, status.reason),
              "failed" as const
            )
          case "unknown":
            return yield* Effect.as(rail.broadcast(p.network, prepared), "rebroadcast" as const)
          case "pending":
            return undefined
        }
      }).pipe(
        Effect.catchTags({
          DecidedMeanwhile: () => Effect.void,
          RailUnavailable: logRail(p, "report or broadcast"),
          RailRejected: logRail(p, "broadcast")
        })
      )

    /**
     * Submits a queued payout: signed by the rail, stored with it and committed while the payout is still pending, and
     * only then broadcast; a rejection fails the payout, an unavailable rail leaves it queued.
     */
    const submit = (p: CryptoPayout) =>
      Effect.gen(function* () {
        const prepared = yield* rail.prepare({
          payoutId: p.id,
          mode: p.mode,
          network: p.network,
          asset: p.asset,
          address: p.address,
          baseUnits: BigInt(p.tokenAmount)
        })
        const submitted = yield* transactor.withTransaction(
          Effect.gen(function* () {
            // Two workers may prepare at once (leaders overlapping after a failover): only the leader's is stored.
            if (!(yield* fence.stillLeading)) return Option.none()
            const locked = yield* repo.lock(p.id)
            if (Option.isNone(locked) || locked.value.status !== "pending") return Option.none()
            const updated = yield* repo.submit(p.id, prepared, yield* nowIso)
            if (Option.isSome(updated)) yield* publish(updated.value, ["crypto_payout.submitted"])
            return updated
          })
        )
        if (Option.isNone(submitted)) return undefined
        yield* rail.broadcast(p.network, prepared).pipe(
          // Stored already: the next round finds it unknown to the network and broadcasts the same transfer again.
          Effect.catchTags({ RailUnavailable: logRail(p, "broadcast"), RailRejected: logRail(p, "broadcast") })
        )
        return "submitted" as const
      }).pipe(
        Effect.catchTags({
          RailRejected: (e) =>
            kernel.release(p, ["pending"], "failed", Effect.void, e.message).pipe(
              Effect.as("failed" as const),
              Effect.catchTag("DecidedMeanwhile", () => Effect.void)
            ),
          RailUnavailable: logRail(p, "sign the transfer")
        })
      )

    const processDue = Effect.gen(function* () {
      const round = { confirmed: 0, failed: 0, rebroadcast: 0, submitted: 0 }
      for (const s of yield* repo.submitted(ROUND_SIZE)) {
        const moved = yield* reconcile(s)
        if (moved !== undefined) round[moved] += 1
      }
      for (const p of yield* repo.queued(ROUND_SIZE)) {
        const moved = yield* submit(p)
        if (moved !== undefined) round[moved] += 1
      }
      return round satisfies PayoutRound
    }).pipe(Effect.withSpan("CryptoPayouts.processDue"))

    return CryptoPayouts.of({ ...kernel.operations, create, cancel, processDue })
  })
  static readonly layer = Layer.effect(CryptoPayouts, CryptoPayouts.make)

  /** A background job that expires payouts awaiting approval past their deadline every `interval`. */
  static readonly sweeper = (interval: Duration.Input) =>
    periodicJob(
      "crypto payout expiry",
      CryptoPayouts.use((s) => s.expireDue),
      interval
    )

  /**
   * The payout worker: one round (`processDue`) every `interval`, for as long as the layer lives. A round that dies (a
   * rail's bug) is logged and the next round runs: what it stored stays consistent, and it retries what it left.
   */
  static readonly worker = (interval: Duration.Input) =>
    periodicJob(
      "crypto payout worker",
      CryptoPayouts.use((s) =>
        s.processDue.pipe(Effect.catchDefect((defect) => Effect.logError("crypto payout worker round died", defect)))
      ),
      interval
    )
}
