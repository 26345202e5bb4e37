import { Clock, Context, type Duration, Effect, Layer, Option, Schema } from "effect"
import type { AgentPrincipal } from "../access/model.ts"
import { type GovernedOperations, governedLifecycle } from "../governance/index.ts"
import type { SettlementAccountMissing } from "../ledger/index.ts"
import { EventOutbox } from "../platform/index.ts"
import {
  hmacHex,
  isoOfMillis,
  millisOfIso,
  newId,
  nowIso,
  type PersistenceUnavailable,
  periodicJob,
  Transactor
} from "../shared/index.ts"
import { SpendFreezesRepo, SpendRequestsRepo } from "../spend/index.ts"
import { type Card, type CardCredentials, CardId, type CardIssuerUnavailable, cardReference } from "./Card.ts"
import { CardIssuer, CardNumberKey } from "./CardIssuer.ts"
import {
  type CheckoutIntent,
  CheckoutIntentId,
  CheckoutIntentInvalid,
  CheckoutIntentNotFound,
  CheckoutIntentNotUsable,
  CountryCode,
  DEFAULT_INTENT_TTL_SECONDS,
  INTENT_TEXT_MAX_LENGTH,
  type IntentMerchant,
  MAX_INTENT_TTL_SECONDS,
  MerchantCategoryCode,
  MIN_INTENT_TTL_SECONDS
} from "./CheckoutIntent.ts"
import { CardsRepo, type CheckoutIntentQuery, CheckoutIntentsRepo } from "./CheckoutRepos.ts"
import { type IntentEventType, intentEvents } from "./internal/IntentEvents.ts"

/** What an agent asks to buy: amount and currency, the merchant, why, and how long the intent may wait. */
export interface CreateCheckoutIntent {
  readonly amount: number
  readonly currency: string
  readonly merchant: {
    readonly name: string
    readonly url?: string | undefined
    readonly mcc?: string | undefined
    readonly country?: string | undefined
  }
  readonly purpose: string
  readonly expiresInSeconds?: number | undefined
}

const invalid = (field: string, message: string) => new CheckoutIntentInvalid({ field, message })

const textOfLength = (value: string, field: string) =>
  value.trim().length === 0 || value.length > INTENT_TEXT_MAX_LENGTH
    ? Effect.fail(invalid(field, `expected 1 to ${INTENT_TEXT_MAX_LENGTH} characters`))
    : Effect.void

const isHttpUrl = (text: string) => {
  if (text.length > 2_048 || !URL.canParse(text)) return false
  const protocol = new URL(text).protocol
  return protocol === "http:" || protocol === "https:"
}

/** The intent's merchant and lifetime, when every field of the ask is well formed; else the first field at fault. */
const validated = (input: CreateCheckoutIntent) =>
  Effect.gen(function* () {
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
      return yield* invalid("amount", "expected a positive integer amount in minor units")
    }
    if (!/^[A-Z]{3}$/u.test(input.currency)) {
      return yield* invalid("currency", "expected an ISO 4217 currency code in upper case, e.g. USD")
    }
    yield* textOfLength(input.merchant.name, "merchant.name")
    const { url, mcc, country } = input.merchant
    if (url !== undefined && !isHttpUrl(url)) return yield* invalid("merchant.url", "expected an http or https URL")
    if (mcc !== undefined && !Schema.is(MerchantCategoryCode)(mcc)) {
      return yield* invalid("merchant.mcc", "a merchant category code is four digits")
    }
    if (country !== undefined && !Schema.is(CountryCode)(country)) {
      return yield* invalid("merchant.country", "a country is a two-letter upper-case ISO 3166-1 code")
    }
    yield* textOfLength(input.purpose, "purpose")
    const ttlSeconds = input.expiresInSeconds ?? DEFAULT_INTENT_TTL_SECONDS
    if (
      !Number.isSafeInteger(ttlSeconds) ||
      ttlSeconds < MIN_INTENT_TTL_SECONDS ||
      ttlSeconds > MAX_INTENT_TTL_SECONDS
    ) {
      return yield* invalid(
        "expiresInSeconds",
        `expected an integer between ${MIN_INTENT_TTL_SECONDS} and ${MAX_INTENT_TTL_SECONDS}`
      )
    }
    const merchant: IntentMerchant = {
      name: input.merchant.name,
      url: url ?? null,
      mcc: mcc ?? null,
      country: country ?? null
    }
    return { merchant, ttlSeconds }
  })

/**
 * Whether an unused intent is past its deadline at `nowMillis`: its own, or for one pending approval the earlier of its
 * own and its approval's (an approver cannot let an intent go past its deadline).
 */
const isIntentDue = (intent: CheckoutIntent, nowMillis: number) =>
  (intent.status === "approved" && millisOfIso(intent.expiresAt) <= nowMillis) ||
  (intent.status === "pending_approval" &&
    intent.approval !== null &&
    intent.approval.status === "pending" &&
    Math.min(millisOfIso(intent.expiresAt), millisOfIso(intent.approval.expiresAt)) <= nowMillis)

type IntentError = CheckoutIntentNotFound | CheckoutIntentNotUsable | PersistenceUnavailable

/**
 * Just-in-time purchase intents (ADR 0015): the agent's policy decides as for a spend request (the same function,
 * the same budgets, counted at creation and given back when the intent ends unused); an approved intent gets one
 * single-use card, whose authorizations (`CardAuthorizations`) hold and post the money.
 */
export class Checkout extends Context.Service<
  Checkout,
  GovernedOperations<CheckoutIntent, CheckoutIntentQuery, CheckoutIntentNotFound, CheckoutIntentNotUsable> & {
    readonly create: (
      agent: AgentPrincipal,
      input: CreateCheckoutIntent
    ) => Effect.Effect<CheckoutIntent, CheckoutIntentInvalid | SettlementAccountMissing | PersistenceUnavailable>
    /** Ends an intent that was not used (`pending_approval` or `approved`), closing its card if one was issued. */
    readonly cancel: (agent: AgentPrincipal, id: string) => Effect.Effect<CheckoutIntent, IntentError>
    /**
     * Issues the card of an `approved` intent: the first call answers the number and CVC, once; any later call
     * answers the same card without them.
     */
    readonly credentials: (
      agent: AgentPrincipal,
      id: string
    ) => Effect.Effect<CardCredentials, IntentError | CardIssuerUnavailable>
  }
>()("@svc/domain/Checkout") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* CheckoutIntentsRepo
    const cards = yield* CardsRepo
    const issuer = yield* CardIssuer
    const transactor = yield* Transactor
    const outbox = yield* EventOutbox

    const publish = (intent: CheckoutIntent, types: ReadonlyArray<IntentEventType>) =>
      Effect.flatMap(intentEvents(intent, types), (events) => outbox.publish(...events))

    /** Tells the issuer a card is closed; the card is closed here already, so a failure is only logged. */
    const closeAtIssuer = (card: Card) =>
      issuer
        .close(card.token)
        .pipe(
          Effect.catch((e) =>
            Effect.logWarning("the card issuer did not close a card", { cardId: card.id, error: e.message })
          )
        )

    const kernel = yield* governedLifecycle(
      { budgets: yield* SpendRequestsRepo, freezes: yield* SpendFreezesRepo },
      {
        name: "Checkout",
        type: "checkout_intent",
        repo,
        id: { make: CheckoutIntentId.make, is: Schema.is(CheckoutIntentId) },
        category: null,
        whenApproved: "none",
        approvedStatus: "approved",
        approvingTeam: (intent) => intent.teamId,
        party: (intent, teamId) => intent.teamId === teamId,
        notFound: (id) => new CheckoutIntentNotFound({ id }),
        notPending: (intent, status) => new CheckoutIntentNotUsable({ id: intent.id, status }),
        invalid,
        isDue: isIntentDue,
        ended: (status: "canceled" | "expired" | "denied", updatedAt) => ({ status, updatedAt }),
        approvedAt: (now) => Effect.succeed({ status: "approved", updatedAt: isoOfMillis(now) }),
        // An unused intent's card is closed with it; the issuer hears of it after the commit.
        released: (intent) =>
          Effect.gen(function* () {
            const card = yield* cards.findByIntent(intent.id)
            if (Option.isNone(card)) return Effect.void
            yield* cards.setStatus(card.value.token, "closed", yield* nowIso)
            return closeAtIssuer(card.value)
          }),
        publish: (intent, types) => publish(intent, types),
        approved: (intent) => publish(intent, ["approved"])
      }
    )

    const create = Effect.fn("Checkout.create")(function* (agent: AgentPrincipal, input: CreateCheckoutIntent) {
      const { merchant, ttlSeconds } = yield* validated(input)
      const now = yield* Clock.currentTimeMillis
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          const start = yield* kernel.decide(agent, now, {
            amount: input.amount,
            currency: input.currency,
            merchant: merchant.name
          })
          return yield* kernel.record(
            {
              id: start.id,
              teamId: agent.teamId,
              mode: agent.mode,
              status: start.status,
              amount: input.amount,
              currency: input.currency,
              merchant,
              purpose: input.purpose,
              accountId: start.account.id,
              spendingKeyId: agent.keyId,
              decision: start.decision,
              approval: start.approvalView,
              card: null,
              authorizedAmount: 0,
              capturedAmount: null,
              expiresAt: isoOfMillis(now + ttlSeconds * 1000),
              createdAt: start.createdAt,
              updatedAt: start.createdAt
            },
            start
          )
        })
      )
    })

    const own = (agent: AgentPrincipal, id: string) =>
      Effect.flatMap(kernel.found(agent.teamId, agent.mode, id), kernel.current)

    const cancel = Effect.fn("Checkout.cancel")(function* (agent: AgentPrincipal, id: string) {
      const intent = yield* own(agent, id)
      if (intent.status !== "pending_approval" && intent.status !== "approved") {
        return yield* new CheckoutIntentNotUsable({ id, status: intent.status })
      }
      return yield* kernel.cancel(intent)
    })

    const credentials = Effect.fn("Checkout.credentials")(function* (agent: AgentPrincipal, id: string) {
      const intent = yield* own(agent, id)
      const referenceOf = (card: NonNullable<CheckoutIntent["card"]>): CardCredentials => ({
        cardId: card.id,
        expMonth: card.expMonth,
        expYear: card.expYear,
        last4: card.last4,
        brand: card.brand
      })
      if (intent.card !== null && (intent.status === "approved" || intent.status === "authorized")) {
        return referenceOf(intent.card)
      }
      if (intent.status !== "approved") return yield* new CheckoutIntentNotUsable({ id, status: intent.status })
      // Issued before the transaction, so no lock waits on the issuer; the issuer answers a retry with the same card.
      const issued = yield* issuer.issue({
        teamId: intent.teamId,
        mode: intent.mode,
        intentId: intent.id,
        amount: intent.amount,
        currency: intent.currency,
        merchantName: intent.merchant.name
      })
      const numberHash = yield* hmacHex(yield* CardNumberKey, issued.number)
      const kept = yield* transactor.withTransaction(
        Effect.gen(function* () {
          const locked = yield* repo.lock(intent.id)
          if (Option.isNone(locked)) return yield* Effect.die(new CheckoutIntentNotFound({ id }))
          const now = locked.value
          if (now.card !== null && (now.status === "approved" || now.status === "authorized")) {
            return { first: false, card: now.card }
          }
          if (now.status !== "approved") return yield* new CheckoutIntentNotUsable({ id, status: now.status })
          const createdAt = yield* nowIso
          const card: Card = {
            id: yield* newId(CardId),
            teamId: now.teamId,
            mode: now.mode,
            intentId: now.id,
            token: issued.token,
            status: "active",
            last4: issued.number.slice(-4),
            brand: issued.brand,
            expMonth: issued.expMonth,
            expYear: issued.expYear,
            numberHash,
            createdAt,
            updatedAt: createdAt
          }
          // The intent is locked and holds no card, so none is stored for it.
          if (!(yield* cards.insert(card))) return yield* Effect.die(new Error(`intent ${id} has a card already`))
          const updated = yield* repo.transition(now.id, ["approved"], {
            status: "approved",
            card: cardReference(card),
            updatedAt: createdAt
          })
          if (Option.isNone(updated)) return yield* Effect.die(new Error(`intent ${id} changed under its lock`))
          yield* publish(updated.value, ["card_issued"])
          return { first: true, card: cardReference(card) }
        })
      )
      const answer = referenceOf(kept.card)
      return kept.first ? { ...answer, number: issued.number, cvc: issued.cvc } : answer
    })

    return Checkout.of({ ...kernel.operations, create, cancel, credentials })
  })
  static readonly layer = Layer.effect(Checkout, Checkout.make)

  /** A background job that expires due intents every `interval`, for as long as the layer lives. */
  static readonly sweeper = (interval: Duration.Input) =>
    periodicJob(
      "checkout intent expiry",
      Checkout.use((c) => c.expireDue),
      interval
    )
}
