import { Clock, Context, type Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import type { AgentPrincipal } from "../access/model.ts"
import { DecidedMeanwhile } from "../approvals/index.ts"
import { type GovernedOperations, governedLifecycle, releasedHold } from "../governance/index.ts"
import { Ledger, type SettlementAccountMissing } from "../ledger/index.ts"
import { domainEvents, EventOutbox } from "../platform/index.ts"
import {
  isoOfMillis,
  type Mode,
  millisOfIso,
  nowIso,
  type PersistenceUnavailable,
  periodicJob,
  randomBytes,
  SealedSecrets,
  type TeamId,
  Transactor,
  toHex
} from "../shared/index.ts"
import { normalizeMerchantName, SpendFreezesRepo, SpendRequestsRepo } from "../spend/index.ts"
import { X402_USD_RATE } from "./Network.ts"
import {
  type X402Payment,
  type X402PaymentEventType,
  X402PaymentId,
  X402PaymentInvalid,
  X402PaymentNotFound,
  X402PaymentNotPending,
  type X402Signed,
  x402PaymentView
} from "./Payment.ts"
import {
  X402Assets,
  type X402PaymentQuery,
  X402PaymentsRepo,
  X402Settlements,
  X402Signer,
  X402WalletsRepo
} from "./Ports.ts"
import { payableRequirement, x402Merchant } from "./Requirement.ts"

/** The category payments are governed under: the policy's category rules and category budgets see them as this. */
export const X402_PAYMENT_CATEGORY = "x402"

/**
 * How long after its authorization's deadline an unused payment is released: the chain's clock may lag the service's,
 * and a transaction mined just before the deadline may be seen a little later.
 */
export const SETTLEMENT_GRACE_SECONDS = 60

/** How far before now an authorization is valid from, as the x402 clients sign it (clocks differ). */
const VALID_AFTER_SKEW_SECONDS = 600

/** How many signed payments one settlement round looks at. */
const ROUND_SIZE = 100

/** What an agent pays: the resource it asked for and the 402 answer it got (its JSON body, or its header's value). */
export interface CreateX402Payment {
  readonly resourceUrl: string
  readonly paymentRequired: unknown
}

/** What one settlement round did. */
export interface SettlementRound {
  readonly settled: number
  readonly expired: number
}

type CreateError = X402PaymentInvalid | SettlementAccountMissing | PersistenceUnavailable

/** Whether a payment awaiting approval is past its approval's deadline at `nowMillis`. */
const isPaymentDue = (p: X402Payment, nowMillis: number) =>
  p.status === "pending_approval" &&
  p.approval !== null &&
  p.approval.status === "pending" &&
  millisOfIso(p.approval.expiresAt) <= nowMillis

/**
 * x402 payments by the team's wallet (ADR 0062): the policy decides as for a spend request, in US cents at one dollar a
 * stablecoin; an approved payment is held and its EIP-3009 authorization signed at once (a payment over the threshold
 * only once a person approves it); the hold is posted once the chain shows the authorization used, or released once it
 * is past its deadline unused.
 */
export class X402Payments extends Context.Service<
  X402Payments,
  GovernedOperations<X402Payment, X402PaymentQuery, X402PaymentNotFound, X402PaymentNotPending> & {
    readonly create: (agent: AgentPrincipal, input: CreateX402Payment) => Effect.Effect<X402Payment, CreateError>
    /** The team's wallet address in `mode`, its key made on first use. */
    readonly walletAddress: (teamId: TeamId, mode: Mode) => Effect.Effect<string, PersistenceUnavailable>
    /**
     * One round of the settlement watch: each signed payment the chain shows used is settled (its hold posted); one
     * past its deadline and the grace, not shown used, expires (its hold released).
     */
    readonly processDue: Effect.Effect<SettlementRound, PersistenceUnavailable>
  }
>()("@svc/domain/X402Payments") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* X402PaymentsRepo
    const wallets = yield* X402WalletsRepo
    const signer = yield* X402Signer
    const settlements = yield* X402Settlements
    const sealed = yield* SealedSecrets
    const spendRepo = yield* SpendRequestsRepo
    const ledger = yield* Ledger
    const outbox = yield* EventOutbox
    const transactor = yield* Transactor
    const assets = yield* X402Assets

    const publish = (p: X402Payment, types: ReadonlyArray<X402PaymentEventType>) =>
      Effect.flatMap(nowIso, (createdAt) =>
        domainEvents({ teamId: p.teamId, mode: p.mode, data: x402PaymentView(p), createdAt }, types)
      ).pipe(Effect.flatMap((events) => outbox.publish(...events)))

    /** The team's wallet in `mode`: made, sealed and stored on first use (a concurrent first use keeps one). */
    const walletOf = (teamId: TeamId, mode: Mode) =>
      Effect.gen(function* () {
        const found = yield* wallets.find(teamId, mode)
        if (Option.isSome(found)) return found.value
        const key = yield* signer.generateKey
        return yield* wallets.insert({
          teamId,
          mode,
          address: key.address,
          sealedKey: yield* sealed.seal(Redacted.value(key.privateKey)),
          createdAt: yield* nowIso
        })
      })

    /** Signs the payment's authorization by the team's wallet, valid from now for the requirement's timeout. */
    const signPayment = (p: X402Payment) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const wallet = yield* walletOf(p.teamId, p.mode)
        // Sealed by this service under its configured key: a seal that does not open is a broken deployment.
        const privateKey = Redacted.make(yield* Effect.orDie(sealed.open(wallet.sealedKey)))
        const nowSeconds = Math.floor(now / 1000)
        const validBefore = nowSeconds + p.maxTimeoutSeconds
        const nonce = `0x${toHex(yield* randomBytes(32))}`
        const authorization = {
          from: wallet.address,
          to: p.payTo,
          value: p.tokenAmount,
          validAfter: String(Math.max(0, nowSeconds - VALID_AFTER_SKEW_SECONDS)),
          validBefore: String(validBefore),
          nonce
        }
        const signature = yield* signer.signAuthorization(privateKey, {
          chainId: p.chainId,
          asset: p.asset,
          domainName: p.domainName,
          domainVersion: p.domainVersion,
          authorization
        })
        const signed: X402Signed = {
          authorization,
          signature,
          authorizationExpiresAt: isoOfMillis(validBefore * 1000),
          signedAt: isoOfMillis(now)
        }
        return signed
      })

    const kernel = yield* governedLifecycle(
      { budgets: spendRepo, freezes: yield* SpendFreezesRepo },
      {
        name: "X402Payments",
        type: "x402_payment",
        repo,
        id: { make: X402PaymentId.make, is: Schema.is(X402PaymentId) },
        category: X402_PAYMENT_CATEGORY,
        whenApproved: "hold",
        approvedStatus: "signed",
        approvingTeam: (p) => p.teamId,
        party: (p, teamId) => p.teamId === teamId,
        notFound: (id) => new X402PaymentNotFound({ id }),
        notPending: (p, status) => new X402PaymentNotPending({ id: p.id, status }),
        invalid: (field, message) => new X402PaymentInvalid({ field, message }),
        isDue: isPaymentDue,
        ended: (status: "canceled" | "expired" | "denied", now) => ({ status, completedAt: now, updatedAt: now }),
        approvedAt: (now) =>
          Effect.succeed({ status: "signed" as const, completedAt: null, updatedAt: isoOfMillis(now) }),
        released: (p) => releasedHold(ledger, p),
        publish: (p, types) =>
          publish(
            p,
            types.map((type) => `x402_payment.${type}` as const)
          ),
        // Approved by a person: signed now, in the approval's transaction.
        approved: (p) =>
          Effect.gen(function* () {
            const signed = yield* repo.sign(p.id, yield* signPayment(p))
            if (Option.isSome(signed)) yield* publish(signed.value, ["x402_payment.signed"])
          })
      }
    )

    const create = Effect.fn("X402Payments.create")(function* (agent: AgentPrincipal, input: CreateX402Payment) {
      const requirement = yield* Effect.fromResult(payableRequirement(input, assets))
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const merchant = x402Merchant(requirement)
          const start = yield* kernel.decide(agent, now, { amount: requirement.cents, currency: "USD", merchant })
          const decided: X402Payment = {
            id: start.id,
            teamId: agent.teamId,
            mode: agent.mode,
            status: start.status,
            x402Version: requirement.x402Version,
            resourceUrl: requirement.resourceUrl,
            merchant,
            network: requirement.network,
            chainId: requirement.chainId,
            asset: requirement.asset.address,
            assetSymbol: requirement.asset.symbol,
            decimals: requirement.asset.decimals,
            domainName: requirement.domain.name,
            domainVersion: requirement.domain.version,
            payTo: requirement.payTo,
            tokenAmount: requirement.tokenAmount.toString(),
            amount: requirement.cents,
            currency: "USD",
            usdRate: X402_USD_RATE,
            maxTimeoutSeconds: requirement.maxTimeoutSeconds,
            accepted: requirement.accepted,
            resource: requirement.resource,
            accountId: start.account.id,
            spendingKeyId: agent.keyId,
            decision: start.decision,
            approval: start.approvalView,
            holdTransactionId: start.ledgerTransaction?.id ?? null,
            authorization: null,
            signature: null,
            authorizationExpiresAt: null,
            settlementTxHash: null,
            signedAt: null,
            completedAt: start.status === "denied" ? start.createdAt : null,
            createdAt: start.createdAt,
            updatedAt: start.createdAt
          }
          const payment = start.status === "signed" ? { ...decided, ...(yield* signPayment(decided)) } : decided
          yield* kernel.record(payment, start)
          if (payment.status === "signed") yield* publish(payment, ["x402_payment.signed"])
          return payment
        })
      )
    })

    /** A signed payment the chain shows used: settled, its hold posted, its merchant known to the team, once. */
    const settle = (p: X402Payment, txHash: string | null) =>
      transactor
        .withTransaction(
          Effect.gen(function* () {
            const now = yield* nowIso
            const updated = yield* repo.transition(p.id, ["signed"], {
              status: "settled",
              settlementTxHash: txHash,
              completedAt: now,
              updatedAt: now
            })
            if (Option.isNone(updated)) return yield* new DecidedMeanwhile()
            if (p.holdTransactionId !== null) yield* ledger.postHold(p.teamId, p.holdTransactionId)
            yield* spendRepo.rememberMerchants([
              { teamId: p.teamId, mode: p.mode, merchant: normalizeMerchantName(p.merchant), at: now }
            ])
            yield* publish(updated.value, ["x402_payment.settled"])
          })
        )
        .pipe(
          Effect.catchTags({
            HoldAlreadyResolved: () => Effect.fail(new DecidedMeanwhile()),
            HoldNotFound: Effect.die
          })
        )

    /** Which of `SettlementRound`'s counters a signed payment moves, if any. */
    const watch = (p: X402Payment, nowMillis: number) =>
      Effect.gen(function* () {
        if (p.authorization === null || p.authorizationExpiresAt === null) return undefined
        const state = yield* settlements.state({
          chainId: p.chainId,
          asset: p.asset,
          authorizer: p.authorization.from,
          nonce: p.authorization.nonce
        })
        if (state._tag === "used") return yield* Effect.as(settle(p, state.txHash), "settled" as const)
        if (millisOfIso(p.authorizationExpiresAt) + SETTLEMENT_GRACE_SECONDS * 1000 > nowMillis) return undefined
        return yield* Effect.as(kernel.release(p, ["signed"], "expired"), "expired" as const)
      }).pipe(Effect.catchTag("DecidedMeanwhile", () => Effect.void))

    const processDue = Effect.gen(function* () {
      const round = { settled: 0, expired: 0 }
      const now = yield* Clock.currentTimeMillis
      for (const p of yield* repo.signed(ROUND_SIZE)) {
        const moved = yield* watch(p, now)
        if (moved !== undefined) round[moved] += 1
      }
      return round satisfies SettlementRound
    }).pipe(Effect.withSpan("X402Payments.processDue"))

    const walletAddress = Effect.fn("X402Payments.walletAddress")(function* (teamId: TeamId, mode: Mode) {
      return (yield* transactor.withTransaction(walletOf(teamId, mode))).address
    })

    return X402Payments.of({ ...kernel.operations, create, walletAddress, processDue })
  })
  static readonly layer = Layer.effect(X402Payments, X402Payments.make)

  /** A background job that expires payments awaiting approval past their deadline every `interval`. */
  static readonly sweeper = (interval: Duration.Input) =>
    periodicJob(
      "x402 payment expiry",
      X402Payments.use((s) => s.expireDue),
      interval
    )

  /**
   * The settlement watch: one round (`processDue`) every `interval`, for as long as the layer lives. A round that dies is
   * logged and the next one runs.
   */
  static readonly watcher = (interval: Duration.Input) =>
    periodicJob(
      "x402 settlement watch",
      X402Payments.use((s) =>
        s.processDue.pipe(Effect.catchDefect((defect) => Effect.logError("x402 settlement round died", defect)))
      ),
      interval
    )
}
