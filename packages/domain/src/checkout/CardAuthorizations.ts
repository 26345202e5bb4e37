import { Context, type Effect } from "effect"
import type { InboundCommandRefused } from "../inbound/index.ts"
import type { PersistenceUnavailable } from "../shared/index.ts"
import type { CardStatus } from "./Card.ts"
import type { CardAuthorizationAnswer, CardAuthorizationRequest } from "./CardAuthorization.ts"

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

type EventError = InboundCommandRefused | PersistenceUnavailable

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
    /** Moves the authorization's hold to the advised amount, or releases it (amount 0, the intent approved again). */
    readonly advise: (advice: AuthorizationAdvice) => Effect.Effect<void, EventError>
    /**
     * Posts the cleared amount of the hold (a smaller amount posts that and releases the rest), completes the intent
     * and closes its card.
     */
    readonly clear: (cleared: ClearedTransaction) => Effect.Effect<void, EventError>
    /** Records the card's state as the issuer reports it. */
    readonly cardChanged: (cardToken: string, status: CardStatus) => Effect.Effect<void, EventError>
  }
>()("@svc/domain/CardAuthorizations") {}
