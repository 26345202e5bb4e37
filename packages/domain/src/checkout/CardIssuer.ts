import { Context, type Effect } from "effect"
import type { Mode, TeamId } from "../shared/model.ts"
import type { CardIssuerUnavailable } from "./Card.ts"

/** What the issuer answers for a new card: its token and its secrets, which only the agent may see. */
export interface IssuedCard {
  readonly token: string
  readonly number: string
  readonly cvc: string
  readonly expMonth: number
  readonly expYear: number
  readonly brand: string
}

/** What a card is issued for. */
export interface CardRequest {
  readonly teamId: TeamId
  readonly mode: Mode
  /** The intent the card is locked to; the issuer's idempotency key, so a retried request gets the same card. */
  readonly intentId: string
  readonly amount: number
  readonly currency: string
  readonly merchantName: string
}

/** The card issuer: issues single-use virtual cards and closes them. */
export class CardIssuer extends Context.Service<
  CardIssuer,
  {
    readonly issue: (request: CardRequest) => Effect.Effect<IssuedCard, CardIssuerUnavailable>
    /** Closes a card at the issuer; closing a closed card changes nothing. */
    readonly close: (token: string) => Effect.Effect<void, CardIssuerUnavailable>
  }
>()("@svc/domain/CardIssuer") {}

/** The key under which card numbers are hashed (`CARD_NUMBER_KEY`); never a card secret itself. */
export const CardNumberKey = Context.Reference<string>("@svc/domain/CardNumberKey", {
  defaultValue: () => "card-number-key-for-development-only"
})
