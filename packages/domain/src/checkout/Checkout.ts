import { Clock, Context, type Duration, Effect, Layer, Option, Schema } from "effect"
import type { AgentPrincipal, TeamPrincipal } from "../access/model.ts"
import {
  type ApprovalNotFound,
  type ApprovalStepRefused,
  ApprovalsRepo,
  type ApproverNotAllowed,
  approvalView,
  DecidedMeanwhile,
  decidePendingApproval,
  expireDueSubjects,
  type SubjectApprovalDecision
} from "../approvals/index.ts"
import type { SettlementAccountMissing } from "../ledger/index.ts"
import { EventOutbox } from "../platform/index.ts"
import {
  hmacHex,
  isoOfMillis,
  type Mode,
  millisOfIso,
  newId,
  nowIso,
  type PageRequest,
  type PersistenceUnavailable,
  periodicJob,
  type TeamId,
  Transactor
} from "../shared/index.ts"
import {
  currentSubject,
  decideGoverned,
  decisionLock,
  governedApprovals,
  normalizeMerchantName,
  SpendFreezesRepo,
  type SpendingFrozen,
  SpendRequestsRepo,
  storedSubject,
  usageWindows
} from "../spend/index.ts"
import { type Card, type CardCredentials, CardId, type CardIssuerUnavailable, cardReference } from "./Card.ts"
import { CardIssuer, CardNumberKey } from "./CardIssuer.ts"
import {
  type CheckoutIntent,
  CheckoutIntentId,
  CheckoutIntentInvalid,
  CheckoutIntentNotFound,
  CheckoutIntentNotUsable,
  type CheckoutIntentStatus,
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

type IntentError = CheckoutIntentNotFound | CheckoutIntentNotUsable | PersistenceUnavailable

/**
 * Just-in-time purchase intents (ADR 0015): the agent's policy decides as for a spend request (the same function,
 * the same budgets, counted at creation and given back when the intent ends unused); an approved intent gets one
 * single-use card, whose authorizations (`CardAuthorizations`) hold and post the money.
 */
export class Checkout extends Context.Service<
  Checkout,
  {
    readonly create: (
      agent: AgentPrincipal,
      input: CreateCheckoutIntent
    ) => Effect.Effect<CheckoutIntent, CheckoutIntentInvalid | SettlementAccountMissing | PersistenceUnavailable>
    /** An intent of the team in `mode`, as of now (an unused one past its deadline is expired first). */
    readonly get: (
      teamId: TeamId,
      mode: Mode,
      id: string
    ) => Effect.Effect<CheckoutIntent, CheckoutIntentNotFound | PersistenceUnavailable>
    readonly list: (
      teamId: TeamId,
      query: CheckoutIntentQuery,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<CheckoutIntent>, PersistenceUnavailable>
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
    /** An approver of the team lets an intent over the threshold go on, or denies it. */
    readonly approve: (
      approver: TeamPrincipal,
      approvalId: string,
      note: string | null
    ) => Effect.Effect<
      CheckoutIntent,
      | ApprovalNotFound
      | ApproverNotAllowed
      | ApprovalStepRefused
      | SpendingFrozen
      | CheckoutIntentNotUsable
      | PersistenceUnavailable
    >
    readonly deny: (
      approver: TeamPrincipal,
      approvalId: string,
      note: string | null
    ) => Effect.Effect<
      CheckoutIntent,
      | ApprovalNotFound
      | ApproverNotAllowed
      | ApprovalStepRefused
      | SpendingFrozen
      | CheckoutIntentNotUsable
      | PersistenceUnavailable
    >
    /** Expires every unused intent past its deadline; returns how many it expired. */
    readonly expireDue: Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/Checkout") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* CheckoutIntentsRepo
    const cards = yield* CardsRepo
    const issuer = yield* CardIssuer
    const spendRepo = yield* SpendRequestsRepo
    const approvals = yield* ApprovalsRepo
    const outbox = yield* EventOutbox
    const transactor = yield* Transactor
    const freezes = yield* SpendFreezesRepo

    const publish = (intent: CheckoutIntent, types: ReadonlyArray<IntentEventType>) =>
      Effect.flatMap(intentEvents(intent, types), (events) => outbox.publish(...events))

    const create = Effect.fn("Checkout.create")(function* (agent: AgentPrincipal, input: CreateCheckoutIntent) {
      const { merchant, ttlSeconds } = yield* validated(input)
      const now = yield* Clock.currentTimeMillis
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          const lock = decisionLock(agent, agent.accountId, now, null, normalizeMerchantName(merchant.name))
          const [inputs] = yield* spendRepo.lockForDecisions([lock])
          const id = yield* newId(CheckoutIntentId)
          const { decision, account, approval, usage } = yield* decideGoverned(
            agent,
            {
              amount: input.amount,
              currency: input.currency,
              merchant: { name: merchant.name },
              accountId: agent.accountId
            },
            { type: "checkout_intent", id, whenApproved: "none" },
            // The lock of one request answers one state.
            inputs ?? (yield* Effect.die(new Error("no locked state for the checkout intent"))),
            now,
            lock.windows
          ).pipe(Effect.catchTag("SpendRequestInvalid", (e) => Effect.fail(invalid(e.field, e.message))))
          const status: CheckoutIntentStatus =
            decision.outcome === "approved"
              ? "approved"
              : decision.outcome === "pending_approval"
                ? "pending_approval"
                : "denied"
          const createdAt = isoOfMillis(now)
          const intent: CheckoutIntent = {
            id,
            teamId: agent.teamId,
            mode: agent.mode,
            status,
            amount: input.amount,
            currency: input.currency,
            merchant,
            purpose: input.purpose,
            accountId: account.id,
            spendingKeyId: agent.keyId,
            decision,
            approval: approval === null ? null : approvalView(approval),
            card: null,
            authorizedAmount: 0,
            capturedAmount: null,
            expiresAt: isoOfMillis(now + ttlSeconds * 1000),
            createdAt,
            updatedAt: createdAt
          }
          if (approval !== null) yield* approvals.insert(approval)
          yield* repo.insert(intent)
          yield* spendRepo.recordUsage(agent.keyId, usage)
          yield* publish(
            intent,
            status === "approved" ? ["created"] : ["created", status === "denied" ? "denied" : "approval_required"]
          )
          return intent
        })
      )
    })

    /** The intent `id` of the team in `mode`. */
    const found = (teamId: TeamId, mode: Mode, id: string) =>
      Effect.gen(function* () {
        const intent = Schema.is(CheckoutIntentId)(id) ? yield* repo.find(id) : Option.none()
        if (Option.isNone(intent) || intent.value.teamId !== teamId || intent.value.mode !== mode) {
          return yield* new CheckoutIntentNotFound({ id })
        }
        return intent.value
      })

    const stored = storedSubject(repo.find, (id) => new CheckoutIntentNotFound({ id }))

    /** Decides the intent's pending approval first. */
    const decideApproval = (intent: CheckoutIntent, d: SubjectApprovalDecision) =>
      decidePendingApproval(approvals, intent.teamId, intent.approval, d)

    /**
     * Ends an unused intent (canceled, expired, denied): the status if it is still one of `from`, its card closed,
     * its budget usage given back, the event; all or nothing. The issuer hears of the closed card after the commit.
     */
    const release = (
      intent: CheckoutIntent,
      from: ReadonlyArray<CheckoutIntentStatus>,
      outcome: "canceled" | "expired" | "denied",
      before: Effect.Effect<void, DecidedMeanwhile | PersistenceUnavailable> = Effect.void
    ) =>
      transactor
        .withTransaction(
          Effect.gen(function* () {
            yield* before
            const now = yield* nowIso
            const updated = yield* repo.transition(intent.id, from, { status: outcome, updatedAt: now })
            if (Option.isNone(updated)) return yield* new DecidedMeanwhile()
            const card = yield* cards.findByIntent(intent.id)
            if (Option.isSome(card)) yield* cards.setStatus(card.value.token, "closed", now)
            yield* spendRepo.moveUsage(
              intent.spendingKeyId,
              usageWindows(millisOfIso(intent.createdAt), null),
              -intent.amount
            )
            yield* publish(updated.value, [outcome])
            return { intent: updated.value, card }
          })
        )
        .pipe(
          Effect.tap(({ card }) => (Option.isSome(card) ? closeAtIssuer(card.value) : Effect.void)),
          Effect.map(({ intent }) => intent)
        )

    /** Tells the issuer a card is closed; the card is closed here already, so a failure is only logged. */
    const closeAtIssuer = (card: Card) =>
      issuer
        .close(card.token)
        .pipe(
          Effect.catch((e) =>
            Effect.logWarning("the card issuer did not close a card", { cardId: card.id, error: e.message })
          )
        )

    /**
     * Whether an unused intent is past its deadline at `nowMillis`: its own, or for one pending approval the earlier of
     * its own and its approval's (an approver cannot let an intent go past its deadline).
     */
    const isDue = (intent: CheckoutIntent, nowMillis: number) =>
      (intent.status === "approved" && millisOfIso(intent.expiresAt) <= nowMillis) ||
      (intent.status === "pending_approval" &&
        intent.approval !== null &&
        intent.approval.status === "pending" &&
        Math.min(millisOfIso(intent.expiresAt), millisOfIso(intent.approval.expiresAt)) <= nowMillis)

    const expire = (intent: CheckoutIntent) =>
      release(
        intent,
        [intent.status],
        "expired",
        intent.status === "pending_approval" && intent.approval !== null
          ? decideApproval(intent, { status: "expired", decidedBy: null, note: null })
          : Effect.void
      )

    /** The intent as of now: an unused one past its deadline is expired first. */
    const current = currentSubject(isDue, expire, stored)

    const own = (agent: AgentPrincipal, id: string) => Effect.flatMap(found(agent.teamId, agent.mode, id), current)

    const governed = governedApprovals(
      { approvals, outbox, freezes, transactor },
      {
        type: "checkout_intent",
        find: (teamId, mode, id) =>
          found(teamId, mode, id).pipe(
            Effect.flatMap((intent) => Effect.map(current(intent), Option.some)),
            Effect.catchTag("CheckoutIntentNotFound", () => Effect.succeedNone)
          ),
        stored,
        notPending: (intent, status) => new CheckoutIntentNotUsable({ id: intent.id, status }),
        decideApproval,
        release,
        approve: (intent) =>
          Effect.flatMap(nowIso, (updatedAt) =>
            repo.transition(intent.id, ["pending_approval"], { status: "approved", updatedAt })
          ),
        approved: (intent) => publish(intent, ["approved"])
      }
    )

    const cancel = Effect.fn("Checkout.cancel")(function* (agent: AgentPrincipal, id: string) {
      const intent = yield* own(agent, id)
      if (intent.status !== "pending_approval" && intent.status !== "approved") {
        return yield* new CheckoutIntentNotUsable({ id, status: intent.status })
      }
      return yield* governed.cancel(intent)
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

    const decideAs = (outcome: "approved" | "denied") =>
      Effect.fn(`Checkout.${outcome === "approved" ? "approve" : "deny"}`)(function* (
        approver: TeamPrincipal,
        approvalId: string,
        note: string | null
      ) {
        return yield* governed.decide(outcome, approver, approvalId, note)
      })

    const expireDue = expireDueSubjects(repo.dueForExpiry, expire).pipe(Effect.withSpan("Checkout.expireDue"))

    return Checkout.of({
      create,
      get: Effect.fn("Checkout.get")(function* (teamId: TeamId, mode: Mode, id: string) {
        return yield* current(yield* found(teamId, mode, id))
      }),
      list: Effect.fn("Checkout.list")(function* (teamId: TeamId, query: CheckoutIntentQuery, page: PageRequest) {
        const rows = yield* Effect.forEach(yield* repo.list(teamId, query, page), current)
        return rows.filter(
          (intent) =>
            (query.status === undefined || intent.status === query.status) &&
            (query.approvalStatus === undefined || intent.approval?.status === query.approvalStatus)
        )
      }),
      cancel,
      credentials,
      approve: decideAs("approved"),
      deny: decideAs("denied"),
      expireDue
    })
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
