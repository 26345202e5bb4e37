import { Cause, Clock, Context, Data, Duration, Effect, Layer, Option, Ref, Schedule } from "effect"
import {
  Ledger,
  LedgerRepo,
  type LedgerTransaction,
  type LockedAccount,
  movementPosting,
  planTransaction
} from "../ledger/index.ts"
import { EventOutbox } from "../platform/index.ts"
import {
  isoOfMillis,
  LedgerTransactionId,
  millisOfIso,
  newId,
  newIdText,
  nowIso,
  type PersistenceUnavailable,
  Transactor
} from "../shared/index.ts"
import { normalizeMerchantName, SpendRequestsRepo, usageWindows } from "../spend/index.ts"
import type { CardStatus } from "./Card.ts"
import {
  authorizationAnswerOf,
  authorizationCheck,
  type CardAuthorization,
  type CardAuthorizationAnswer,
  type CardAuthorizationRequest,
  UNAVAILABLE_DECLINE_REASON
} from "./CardAuthorization.ts"
import {
  CardAdviceUnmatched,
  CardAuthorizationNotFound,
  CardClearingUnmatched,
  type CardEventRefusal,
  CardNotFound,
  CardRefundUnmatched
} from "./CardEventRefusal.ts"
import { CardIssuer } from "./CardIssuer.ts"
import { type CheckoutIntent, CheckoutIntentId } from "./CheckoutIntent.ts"
import {
  type AuthorizationInputs,
  CardAuthorizationsRepo,
  CardsRepo,
  CheckoutIntentsRepo,
  type DecidedAuthorization
} from "./CheckoutRepos.ts"
import { intentEvents } from "./internal/IntentEvents.ts"

/** What an authorization may exceed its intent by (tips, tax), in minor units; `CARD_AUTH_TOLERANCE_MINOR`, 0 by default. */
export const AuthorizationTolerance = Context.Reference<number>("@svc/domain/AuthorizationTolerance", {
  defaultValue: () => 0
})

/** How long a decision may take before it is answered DECLINED (`CARD_AUTH_DEADLINE_MS`), well inside the issuer's ~2 s. */
export const AuthorizationDeadline = Context.Reference<number>("@svc/domain/AuthorizationDeadline", {
  defaultValue: () => 1_500
})

/** The issuer's later word on an authorization: its new amount (0 when it is reversed). */
export interface AuthorizationAdvice {
  readonly token: string
  readonly amount: number
}

/** The issuer cleared a purchase: `amount` of the authorization `token` is paid. */
export interface ClearedTransaction {
  /** The issuer's id of the clearing; the posting's reference, so a redelivery posts nothing more. */
  readonly transactionId: string
  readonly token: string
  readonly amount: number
  readonly currency: string
}

/** The issuer refunded `amount` of a cleared authorization `token` (the merchant gave money back). */
export interface CardRefund {
  /** The issuer's id of the refund; in the posting's reference (`token:refundId`), so a redelivery posts nothing more. */
  readonly refundId: string
  readonly token: string
  readonly amount: number
  readonly currency: string
}

type EventError = CardEventRefusal | PersistenceUnavailable

/** The ledger code of an authorization's hold. */
const HOLD_CODE = "card_authorization"

/** The ledger code of a refund posted back to the spend account. */
const REFUND_CODE = "card_refund"

/** The answer when no decision was reached in time; it is stored nowhere, so a retry is decided afresh. */
const UNAVAILABLE: CardAuthorizationAnswer = {
  approve_response: "DECLINED",
  decline_reason: UNAVAILABLE_DECLINE_REASON
}

/**
 * How many times an authorization is decided before it is answered unavailable, when each time what an approval was
 * decided on moved before it was written (another authorization took the intent or the funds meanwhile, and the next
 * reading decides on that).
 */
const DECISION_ATTEMPTS = 4

/** The decision took longer than `AuthorizationDeadline`. */
class DeadlinePassed extends Data.TaggedError("DeadlinePassed")<{}> {}

/** Every attempt's approval met a state that had moved since it was read (`DECISION_ATTEMPTS`). */
class DecisionKeptMoving extends Data.TaggedError("DecisionKeptMoving")<{}> {}

/**
 * The card issuer's real-time authorizations and later events on the cards of checkout intents (ADR 0015). Each
 * decision is one short transaction that locks the intent and its card, checks them in the contract's order, and
 * stores the decision with its hold; each event changes things at most once however often it is delivered.
 */
export class CardAuthorizations extends Context.Service<
  CardAuthorizations,
  {
    /**
     * Decides an authorization: a replayed token answers the first decision; a decision not reached within
     * `AuthorizationDeadline` (the database down or slow) is answered DECLINED and leaves nothing behind.
     */
    readonly authorize: (request: CardAuthorizationRequest) => Effect.Effect<CardAuthorizationAnswer>
    /**
     * Moves the authorization's hold to the advised amount, or releases it (amount 0, the intent approved again); an
     * increase beyond the spend account's available balance is refused (`CardAdviceUnmatched`) and changes nothing.
     */
    readonly advise: (advice: AuthorizationAdvice) => Effect.Effect<void, EventError>
    /**
     * Posts the cleared amount of the hold (a smaller amount posts that and releases the rest), completes the intent
     * and closes its card.
     */
    readonly clear: (cleared: ClearedTransaction) => Effect.Effect<void, EventError>
    /**
     * Posts a refund of a cleared authorization back to the intent's spend account (ledger code `card_refund`); the
     * refunds of an authorization never exceed what was cleared. The intent stays `completed`.
     */
    readonly refund: (refund: CardRefund) => Effect.Effect<void, EventError>
    /** Records the card's state as the issuer reports it. */
    readonly cardChanged: (cardToken: string, status: CardStatus) => Effect.Effect<void, EventError>
  }
>()("@svc/domain/CardAuthorizations") {
  static readonly make = Effect.gen(function* () {
    const intents = yield* CheckoutIntentsRepo
    const cards = yield* CardsRepo
    const authorizations = yield* CardAuthorizationsRepo
    const issuer = yield* CardIssuer
    const ledger = yield* Ledger
    const ledgerRepo = yield* LedgerRepo
    const spendRepo = yield* SpendRequestsRepo
    const outbox = yield* EventOutbox
    const transactor = yield* Transactor

    const publishCompleted = (intent: CheckoutIntent) =>
      Effect.flatMap(intentEvents(intent, ["completed"]), (events) => outbox.publish(...events))

    /** Locks the intent of a stored card or authorization, which always exists: intents are never deleted. */
    const lockIntent = (id: string) =>
      Effect.flatMap(
        intents.lock(CheckoutIntentId.make(id)),
        Option.match({
          onNone: () => Effect.die(new Error(`no checkout intent ${id}`)),
          onSome: Effect.succeed
        })
      )

    /**
     * A movement of `amount` between the intent's spend account and the team's settlement account, planned over both
     * accounts as `locked`: a `hold` towards the settlement account (with `checkFunds`, refused when the spend
     * account's available balance does not cover it), or a `refund` posted back to the spend account.
     */
    const movementOn = (
      intent: CheckoutIntent,
      locked: ReadonlyArray<LockedAccount>,
      kind: "hold" | "refund",
      reference: string,
      amount: number,
      checkFunds: boolean
    ) =>
      Effect.gen(function* () {
        const settlement = locked.find((l) => l.account.kind === "settlement")
        // The intent was created against this settlement account, and accounts are never deleted.
        if (settlement === undefined) return yield* Effect.die(new Error(`no settlement account for ${intent.id}`))
        const [debitAccountId, creditAccountId] =
          kind === "hold" ? [intent.accountId, settlement.account.id] : [settlement.account.id, intent.accountId]
        const { base, entries } = movementPosting(
          {
            teamId: intent.teamId,
            mode: intent.mode,
            code: kind === "hold" ? HOLD_CODE : REFUND_CODE,
            reference,
            debitAccountId,
            creditAccountId,
            amount
          },
          kind === "hold"
        )
        const header = { ...base, id: yield* newId(LedgerTransactionId), createdAt: yield* nowIso }
        return yield* Effect.fromResult(planTransaction(header, entries, { locked, checkFunds })).pipe(
          // Two accounts of the intent's team, mode and currency, and a positive amount.
          Effect.catchTags({ UnbalancedTransaction: Effect.die, AccountNotFound: Effect.die })
        )
      })

    /** `movementOn` the intent's spend account and the team's settlement account, locked now. */
    const planMovement = (
      intent: CheckoutIntent,
      kind: "hold" | "refund",
      reference: string,
      amount: number,
      checkFunds: boolean
    ) =>
      Effect.gen(function* () {
        const settlement = yield* ledgerRepo.findAccountByKind(
          intent.teamId,
          intent.mode,
          "settlement",
          intent.currency
        )
        const locked = yield* ledgerRepo.lockAccounts([
          intent.accountId,
          ...Option.toArray(settlement).map((a) => a.id)
        ])
        return yield* movementOn(intent, locked, kind, reference, amount, checkFunds)
      })

    /** Appends a planned hold under a reference made for it, so no other transaction has it. */
    const insertHold = (hold: LedgerTransaction) =>
      ledgerRepo
        .insertTransaction(hold)
        .pipe(Effect.catchTags({ DuplicateLedgerTransaction: Effect.die, HoldAlreadyResolved: Effect.die }))

    /** What a new authorization writes, decided on the locked card, intent and accounts (none for an unknown card). */
    const decision = (
      request: CardAuthorizationRequest,
      inputs: Exclude<AuthorizationInputs, { readonly _tag: "Decided" }>,
      now: number
    ) =>
      Effect.gen(function* () {
        const found = inputs._tag === "Card" ? inputs : undefined
        let reason = authorizationCheck(request, found, now, yield* AuthorizationTolerance)
        let hold: LedgerTransaction | null = null
        if (found !== undefined && reason === undefined) {
          const planned = yield* Effect.result(
            movementOn(found.intent, found.accounts, "hold", request.token, request.amount, true)
          )
          if (planned._tag === "Success") hold = planned.success
          else reason = "insufficient_funds"
        }
        const createdAt = isoOfMillis(now)
        const intent = found?.intent
        const authorization: CardAuthorization = {
          token: request.token,
          cardToken: request.card_token,
          teamId: intent?.teamId ?? null,
          mode: intent?.mode ?? null,
          intentId: intent?.id ?? null,
          status: hold === null ? "declined" : "approved",
          declineReason: reason ?? null,
          amount: request.amount,
          currency: request.currency,
          merchantDescriptor: request.merchant.descriptor,
          merchantMcc: request.merchant.mcc ?? null,
          merchantCountry: request.merchant.country ?? null,
          holdTransactionId: hold?.id ?? null,
          heldAmount: hold === null ? 0 : request.amount,
          refundedAmount: 0,
          createdAt,
          updatedAt: createdAt
        }
        const events =
          intent === undefined || hold === null
            ? []
            : yield* intentEvents(
                { ...intent, status: "authorized", authorizedAmount: request.amount, updatedAt: createdAt },
                ["authorized"]
              )
        const decided: DecidedAuthorization = { authorization, hold, events }
        return decided
      })

    /**
     * The decision on a new authorization, in two statements and no transaction (ADR 0060): what it is decided on,
     * read without locks; then what it writes, written only if the token is still undecided and, for an approval, the
     * intent still approved, the card still active and the funds still there, checked under their row locks. When the
     * write finds anything moved it writes nothing and the authorization is decided again on a new reading, which
     * answers a concurrent delivery's stored decision. `planned` gets the id of the hold an attempt writes, if it
     * approves.
     */
    const decide = (request: CardAuthorizationRequest, planned: Ref.Ref<string | null>) =>
      Effect.gen(function* () {
        for (let attempt = 1; attempt <= DECISION_ATTEMPTS; attempt++) {
          const inputs = yield* authorizations.readForDecision(request.token, request.card_token)
          if (inputs._tag === "Decided") return authorizationAnswerOf(inputs.decision)
          const decided = yield* decision(request, inputs, yield* Clock.currentTimeMillis)
          yield* Ref.set(planned, decided.hold?.id ?? null)
          if (yield* authorizations.insertDecision(decided)) return authorizationAnswerOf(decided.authorization)
        }
        return yield* new DecisionKeptMoving()
      })

    /** The answer when no decision was reached: logged with the token and why, never the request. */
    const unavailable = (token: string, cause: Cause.Cause<unknown>) => {
      const failure = Cause.squash(cause)
      const why = typeof failure === "object" && failure !== null && "_tag" in failure ? String(failure._tag) : "defect"
      return Effect.as(Effect.logWarning("card authorization answered unavailable", { token, why }), UNAVAILABLE)
    }

    const authorize = (request: CardAuthorizationRequest) =>
      Effect.gen(function* () {
        const deadline = yield* AuthorizationDeadline
        const planned = yield* Ref.make<string | null>(null)
        return yield* decide(request, planned).pipe(
          Effect.timeoutOrElse({
            duration: deadline,
            orElse: () => Effect.fail(new DeadlinePassed())
          }),
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause)
              ? Effect.interrupt
              : Effect.tap(unavailable(request.token, cause), () =>
                  Effect.flatMap(Ref.get(planned), (holdId) =>
                    holdId === null ? Effect.void : Effect.forkDetach(withdrawUntilSettled(request.token, holdId))
                  )
                )
          )
        )
      }).pipe(Effect.withSpan("CardAuthorizations.authorize", { attributes: { token: request.token } }))

    /**
     * Gives an approved authorization up: its hold released, its status `reversed`, its intent usable again. In one
     * transaction with the authorization's intent locked.
     */
    const reverse = (intent: CheckoutIntent, token: string, holdId: LedgerTransaction["id"]) =>
      Effect.gen(function* () {
        const updatedAt = yield* nowIso
        yield* ledger.voidHold(intent.teamId, holdId)
        yield* authorizations.update(token, ["approved"], {
          status: "reversed",
          heldAmount: 0,
          holdTransactionId: holdId,
          updatedAt
        })
        // Usable again until its deadline; one past it expires on its next read or sweep, giving its budget back.
        yield* intents.transition(intent.id, ["authorized"], { status: "approved", authorizedAmount: 0, updatedAt })
      })

    /**
     * After a decision was answered DECLINED unavailable, its approval may still have committed: the connection was
     * lost or the deadline passed while the commit was on its way (a failover, a slow database). The issuer was told
     * DECLINED, so that approval must not keep its hold. Reverses the authorization if it stands with `holdId`, the
     * hold this attempt wrote (a concurrent delivery's decision, answered to the issuer, is left alone); retried
     * until the database answers, for up to ten minutes.
     */
    const withdrawUntilSettled = (token: string, holdId: string) =>
      transactor
        .withTransaction(
          Effect.gen(function* () {
            const locked = yield* lockedAuthorization(token).pipe(
              // Nothing was stored: the decision was rolled back, nothing to give up.
              Effect.catchTag("CardAuthorizationNotFound", () => Effect.succeedNone)
            )
            if (Option.isNone(locked)) return
            const { intent, authorization } = locked.value
            if (authorization.status !== "approved" || authorization.holdTransactionId !== holdId) return
            yield* reverse(intent, token, authorization.holdTransactionId)
            yield* Effect.logWarning("card authorization answered unavailable had committed; reversed", { token })
          })
        )
        .pipe(
          // The hold is the authorization's, resolved only under the intent's lock with the row's status changed.
          Effect.catchTags({ HoldNotFound: Effect.die, HoldAlreadyResolved: Effect.die }),
          Effect.retry({
            schedule: Schedule.exponential("200 millis").pipe(
              Schedule.modifyDelay(({ duration }) => Effect.succeed(Duration.min(duration, Duration.seconds(5)))),
              Schedule.upTo({ duration: "10 minutes" })
            ),
            while: (error) => error._tag === "PersistenceUnavailable"
          }),
          Effect.catchCause((cause) =>
            Effect.logError("card authorization answered unavailable could not be checked", { token, cause })
          )
        )

    /**
     * The stored authorization of `token` with its intent locked, read again under that lock (every change of an
     * authorization happens under its intent's lock); none for a decline of an unknown card, which has no intent.
     */
    const lockedAuthorization = (token: string) =>
      Effect.gen(function* () {
        const first = yield* authorizations.find(token)
        if (Option.isNone(first)) return yield* new CardAuthorizationNotFound({ token })
        if (first.value.intentId === null) return Option.none()
        const intent = yield* lockIntent(first.value.intentId)
        const authorization = Option.getOrElse(yield* authorizations.find(token), () => first.value)
        return Option.some({ intent, authorization })
      })

    const advise = Effect.fn("CardAuthorizations.advise")(function* (advice: AuthorizationAdvice) {
      yield* transactor
        .withTransaction(
          Effect.gen(function* () {
            const locked = yield* lockedAuthorization(advice.token)
            if (Option.isNone(locked)) return
            const { intent, authorization } = locked.value
            const holdId = authorization.holdTransactionId
            if (authorization.status !== "approved" || holdId === null || advice.amount === authorization.heldAmount) {
              return
            }
            if (advice.amount === 0) return yield* reverse(intent, advice.token, holdId)
            const updatedAt = yield* nowIso
            yield* ledger.voidHold(intent.teamId, holdId)
            // The spend account never goes below zero (the database refuses it): an increase beyond what is available
            // once the old hold is released is refused and parked, as a clearing beyond the hold is. The first hold
            // took the token as reference; each later one takes a fresh reference under it.
            const hold = yield* planMovement(
              intent,
              "hold",
              `${advice.token}:${yield* newIdText}`,
              advice.amount,
              true
            ).pipe(
              Effect.catchTag("InsufficientFunds", (e) =>
                Effect.fail(
                  new CardAdviceUnmatched({
                    token: advice.token,
                    message: `advises ${advice.amount}, more than the ${e.available} available`
                  })
                )
              )
            )
            yield* insertHold(hold)
            yield* authorizations.update(advice.token, ["approved"], {
              status: "approved",
              heldAmount: advice.amount,
              holdTransactionId: hold.id,
              updatedAt
            })
            yield* intents.transition(intent.id, ["authorized"], {
              status: "authorized",
              authorizedAmount: advice.amount,
              updatedAt
            })
          })
        )
        .pipe(
          Effect.catchTags({
            // The hold is the authorization's, resolved only under the intent's lock with the row's status changed.
            HoldNotFound: Effect.die,
            HoldAlreadyResolved: Effect.die
          })
        )
    })

    const clear = Effect.fn("CardAuthorizations.clear")(function* (cleared: ClearedTransaction) {
      const unmatched = (message: string) => Effect.fail(new CardClearingUnmatched({ token: cleared.token, message }))
      const closed = yield* transactor
        .withTransaction(
          Effect.gen(function* () {
            const locked = yield* lockedAuthorization(cleared.token)
            if (Option.isNone(locked)) return yield* unmatched("the authorization was declined")
            const { intent, authorization } = locked.value
            if (authorization.status === "cleared") return Option.none<string>()
            const holdId = authorization.holdTransactionId
            if (authorization.status !== "approved" || holdId === null) {
              return yield* unmatched(`the authorization is ${authorization.status}`)
            }
            if (cleared.currency !== authorization.currency) {
              return yield* unmatched(`cleared in ${cleared.currency}, authorized in ${authorization.currency}`)
            }
            if (cleared.amount > authorization.heldAmount) {
              return yield* unmatched(`clears ${cleared.amount}, more than the ${authorization.heldAmount} held`)
            }
            const updatedAt = yield* nowIso
            yield* authorizations.update(cleared.token, ["approved"], {
              status: "cleared",
              heldAmount: 0,
              holdTransactionId: holdId,
              updatedAt
            })
            yield* cards.setStatus(authorization.cardToken, "closed", updatedAt)
            yield* ledger.postHold(intent.teamId, holdId, cleared.amount)
            const completed = yield* intents.transition(intent.id, ["authorized"], {
              status: "completed",
              authorizedAmount: 0,
              capturedAmount: cleared.amount,
              updatedAt
            })
            // An approved authorization leaves its intent authorized until it is reversed or cleared, under this lock.
            if (Option.isNone(completed)) return yield* Effect.die(new Error(`intent ${intent.id} is not authorized`))
            if (cleared.amount !== intent.amount) {
              yield* spendRepo.moveUsage(
                intent.spendingKeyId,
                usageWindows(millisOfIso(intent.createdAt), null),
                cleared.amount - intent.amount
              )
            }
            yield* spendRepo.rememberMerchants([
              {
                teamId: intent.teamId,
                mode: intent.mode,
                merchant: normalizeMerchantName(intent.merchant.name),
                at: updatedAt
              }
            ])
            yield* publishCompleted(completed.value)
            return Option.some(authorization.cardToken)
          })
        )
        .pipe(Effect.catchTags({ HoldNotFound: Effect.die, HoldAlreadyResolved: Effect.die }))
      if (Option.isSome(closed)) {
        yield* issuer
          .close(closed.value)
          .pipe(Effect.catch((e) => Effect.logWarning("the card issuer did not close a card", { error: e.message })))
      }
    })

    const refund = Effect.fn("CardAuthorizations.refund")(function* (refunded: CardRefund) {
      const unmatched = (message: string) => Effect.fail(new CardRefundUnmatched({ token: refunded.token, message }))
      yield* transactor.withTransaction(
        Effect.gen(function* () {
          const locked = yield* lockedAuthorization(refunded.token)
          if (Option.isNone(locked)) return yield* unmatched("the authorization was declined")
          const { intent, authorization } = locked.value
          if (authorization.status !== "cleared")
            return yield* unmatched(`the authorization is ${authorization.status}`)
          if (refunded.currency !== authorization.currency) {
            return yield* unmatched(`refunded in ${refunded.currency}, cleared in ${authorization.currency}`)
          }
          // Under the token, as its holds are, so the authorization's movements are found together.
          const reference = `${refunded.token}:${refunded.refundId}`
          const posting = yield* planMovement(intent, "refund", reference, refunded.amount, false).pipe(
            Effect.catchTag("InsufficientFunds", Effect.die)
          )
          const posted = yield* ledgerRepo.insertTransaction(posting).pipe(
            Effect.as(true),
            Effect.catchTags({
              DuplicateLedgerTransaction: () => Effect.succeed(false),
              HoldAlreadyResolved: Effect.die
            })
          )
          // A redelivered refund was posted already.
          if (!posted) return
          const refundable = (intent.capturedAmount ?? 0) - authorization.refundedAmount
          if (refunded.amount > refundable) {
            return yield* unmatched(`refunds ${refunded.amount}, more than the ${refundable} cleared and not refunded`)
          }
          yield* authorizations.addRefund(refunded.token, refunded.amount, yield* nowIso)
        })
      )
    })

    const cardChanged = Effect.fn("CardAuthorizations.cardChanged")(function* (cardToken: string, status: CardStatus) {
      const card = yield* cards.setStatus(cardToken, status, yield* nowIso)
      if (Option.isNone(card)) return yield* new CardNotFound({ cardToken })
    })

    return CardAuthorizations.of({ authorize, advise, clear, refund, cardChanged })
  })

  static readonly layer = Layer.effect(CardAuthorizations, CardAuthorizations.make)
}
