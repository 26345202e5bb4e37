import { Context, Effect, Layer, Option, Schema } from "effect"
import type { AgentPrincipal } from "../access/model.ts"
import { newIdText, type PersistenceUnavailable } from "../shared/index.ts"
import { type Card, CardId, type CardStatus, type CardView, cardView } from "./Card.ts"
import {
  type CardAuthorization,
  type CardAuthorizationView,
  cardAuthorizationView,
  UNAVAILABLE_DECLINE_REASON
} from "./CardAuthorization.ts"
import { CardAuthorizations } from "./CardAuthorizations.ts"
import type { CardAdviceUnmatched, CardClearingUnmatched, CardRefundUnmatched } from "./CardEventRefusal.ts"
import { CardAuthorizationsRepo, CardsRepo } from "./CheckoutRepos.ts"

/** The test-mode helpers were called with a live credential: nothing ran. */
export class TestModeOnly extends Schema.TaggedError<TestModeOnly>()("TestModeOnly", {}) {}

/** No card of the team in the credential's mode has this id. */
export class SimulatedCardNotFound extends Schema.TaggedError<SimulatedCardNotFound>()("SimulatedCardNotFound", {
  cardId: Schema.String
}) {}

/** No authorization of the team in the credential's mode has this id. */
export class SimulatedAuthorizationNotFound extends Schema.TaggedError<SimulatedAuthorizationNotFound>()(
  "SimulatedAuthorizationNotFound",
  { authorizationId: Schema.String }
) {}

/** No decision was reached in time (the database is down or slow); nothing was stored, so a retry decides afresh. */
export class AuthorizationUnavailable extends Schema.TaggedError<AuthorizationUnavailable>()(
  "AuthorizationUnavailable",
  {}
) {}

/** The merchant a simulated authorization names, as the issuer's auth-stream carries it. */
export interface SimulatedMerchant {
  readonly descriptor: string
  readonly mcc?: string | undefined
  readonly country?: string | undefined
}

/** A simulated authorization on a card: what the issuer would ask the service to approve. */
export interface SimulatedAuthorizationRequest {
  readonly amount: number
  readonly currency: string
  readonly merchant: SimulatedMerchant
}

type Refusal = TestModeOnly | PersistenceUnavailable

/**
 * Test mode's stand-in for the card issuer (ADR 0059): each helper names the team's card or authorization by the ids
 * the API answers, and calls the very `CardAuthorizations` operation the issuer's auth-stream or webhook reaches, so
 * it decides, holds, posts and publishes exactly as the issuer's own request would. Live credentials are refused
 * before anything is read.
 */
export class IssuerSimulation extends Context.Service<
  IssuerSimulation,
  {
    /** Asks for an authorization on the card, under a new issuer token, and answers the decision as stored. */
    readonly authorize: (
      agent: AgentPrincipal,
      cardId: string,
      request: SimulatedAuthorizationRequest
    ) => Effect.Effect<CardAuthorizationView, Refusal | SimulatedCardNotFound | AuthorizationUnavailable>
    /**
     * The issuer's advice: the authorization's new amount (larger, smaller, or 0 to reverse it); an increase beyond the
     * available balance is refused.
     */
    readonly advise: (
      agent: AgentPrincipal,
      authorizationId: string,
      amount: number
    ) => Effect.Effect<CardAuthorizationView, Refusal | SimulatedAuthorizationNotFound | CardAdviceUnmatched>
    /** The issuer's clearing of `amount` (the whole hold when absent; a smaller amount releases the rest). */
    readonly clear: (
      agent: AgentPrincipal,
      authorizationId: string,
      amount: number | undefined
    ) => Effect.Effect<CardAuthorizationView, Refusal | SimulatedAuthorizationNotFound | CardClearingUnmatched>
    /** The issuer's refund of `amount` of a cleared authorization, posted back to the spend account. */
    readonly refund: (
      agent: AgentPrincipal,
      authorizationId: string,
      amount: number
    ) => Effect.Effect<CardAuthorizationView, Refusal | SimulatedAuthorizationNotFound | CardRefundUnmatched>
    /** The issuer's report of the card's state. */
    readonly cardChanged: (
      agent: AgentPrincipal,
      cardId: string,
      status: CardStatus
    ) => Effect.Effect<CardView, Refusal | SimulatedCardNotFound>
  }
>()("@svc/domain/IssuerSimulation") {
  static readonly make = Effect.gen(function* () {
    const cards = yield* CardsRepo
    const authorizations = yield* CardAuthorizationsRepo
    const issuer = yield* CardAuthorizations

    const testMode = (agent: AgentPrincipal) => (agent.mode === "test" ? Effect.void : Effect.fail(new TestModeOnly()))

    const cardOf = (agent: AgentPrincipal, cardId: string) =>
      Effect.gen(function* () {
        yield* testMode(agent)
        const notFound = new SimulatedCardNotFound({ cardId })
        if (!Schema.is(CardId)(cardId)) return yield* notFound
        const card = yield* cards.findById(agent.teamId, agent.mode, cardId)
        return Option.isSome(card) ? card.value : yield* notFound
      })

    /** The authorization `id` of the team in the agent's mode, with its card. */
    const authorizationOf = (agent: AgentPrincipal, id: string) =>
      Effect.gen(function* () {
        yield* testMode(agent)
        const notFound = new SimulatedAuthorizationNotFound({ authorizationId: id })
        const found = yield* authorizations.find(id)
        if (Option.isNone(found)) return yield* notFound
        const authorization = found.value
        if (authorization.teamId !== agent.teamId || authorization.mode !== agent.mode) return yield* notFound
        const card = yield* cards.findByToken(authorization.cardToken)
        // An authorization with a team was decided on a card the service issued, and cards are never deleted.
        if (Option.isNone(card)) return yield* Effect.die(new Error(`no card for authorization ${id}`))
        return { authorization, card: card.value }
      })

    const viewOf = (authorization: CardAuthorization, card: Card) =>
      cardAuthorizationView({ ...authorization, intentId: card.intentId }, card.id)

    /** The authorization as it is now. */
    const current = (agent: AgentPrincipal, id: string) =>
      Effect.map(authorizationOf(agent, id), ({ authorization, card }) => viewOf(authorization, card))

    const authorize = Effect.fn("IssuerSimulation.authorize")(function* (
      agent: AgentPrincipal,
      cardId: string,
      request: SimulatedAuthorizationRequest
    ) {
      const card = yield* cardOf(agent, cardId)
      const token = yield* newIdText
      const answer = yield* issuer.authorize({
        token,
        card_token: card.token,
        amount: request.amount,
        currency: request.currency,
        merchant: {
          descriptor: request.merchant.descriptor,
          mcc: request.merchant.mcc ?? null,
          country: request.merchant.country ?? null
        }
      })
      if (answer.decline_reason === UNAVAILABLE_DECLINE_REASON) return yield* new AuthorizationUnavailable()
      const stored = yield* authorizations.find(token)
      // A decision other than unavailable was stored by the statement that decided it (ADR 0060).
      if (Option.isNone(stored)) return yield* Effect.die(new Error(`no stored decision for authorization ${token}`))
      return viewOf(stored.value, card)
    })

    const advise = Effect.fn("IssuerSimulation.advise")(function* (
      agent: AgentPrincipal,
      authorizationId: string,
      amount: number
    ) {
      yield* authorizationOf(agent, authorizationId)
      yield* issuer.advise({ token: authorizationId, amount }).pipe(
        // Found above, and authorizations are never deleted; advice refuses nothing else.
        Effect.catchTags({
          CardAuthorizationNotFound: Effect.die,
          CardNotFound: Effect.die,
          CardClearingUnmatched: Effect.die,
          CardRefundUnmatched: Effect.die
        })
      )
      return yield* current(agent, authorizationId)
    })

    const clear = Effect.fn("IssuerSimulation.clear")(function* (
      agent: AgentPrincipal,
      authorizationId: string,
      amount: number | undefined
    ) {
      const { authorization } = yield* authorizationOf(agent, authorizationId)
      yield* issuer
        .clear({
          transactionId: yield* newIdText,
          token: authorizationId,
          amount: amount ?? authorization.heldAmount,
          currency: authorization.currency
        })
        .pipe(
          Effect.catchTags({
            CardAuthorizationNotFound: Effect.die,
            CardNotFound: Effect.die,
            CardAdviceUnmatched: Effect.die,
            CardRefundUnmatched: Effect.die
          })
        )
      return yield* current(agent, authorizationId)
    })

    const refund = Effect.fn("IssuerSimulation.refund")(function* (
      agent: AgentPrincipal,
      authorizationId: string,
      amount: number
    ) {
      const { authorization } = yield* authorizationOf(agent, authorizationId)
      yield* issuer
        .refund({
          refundId: yield* newIdText,
          token: authorizationId,
          amount,
          currency: authorization.currency
        })
        .pipe(
          Effect.catchTags({
            CardAuthorizationNotFound: Effect.die,
            CardNotFound: Effect.die,
            CardAdviceUnmatched: Effect.die,
            CardClearingUnmatched: Effect.die
          })
        )
      return yield* current(agent, authorizationId)
    })

    const cardChanged = Effect.fn("IssuerSimulation.cardChanged")(function* (
      agent: AgentPrincipal,
      cardId: string,
      status: CardStatus
    ) {
      const card = yield* cardOf(agent, cardId)
      yield* issuer.cardChanged(card.token, status).pipe(
        Effect.catchTags({
          CardAuthorizationNotFound: Effect.die,
          CardNotFound: Effect.die,
          CardAdviceUnmatched: Effect.die,
          CardClearingUnmatched: Effect.die,
          CardRefundUnmatched: Effect.die
        })
      )
      return cardView(yield* cardOf(agent, cardId))
    })

    return IssuerSimulation.of({ authorize, advise, clear, refund, cardChanged })
  })

  static readonly layer = Layer.effect(IssuerSimulation, IssuerSimulation.make)
}
