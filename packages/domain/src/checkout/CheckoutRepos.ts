import { Context, type Effect, type Option } from "effect"
import type { GovernedQuery, GovernedRepo } from "../governance/model.ts"
import type { LedgerTransaction, LockedAccount } from "../ledger/model.ts"
import type { DomainEvent } from "../platform/index.ts"
import type { LedgerTransactionId, Mode, PersistenceUnavailable, TeamId } from "../shared/model.ts"
import type { Card, CardId, CardStatus } from "./Card.ts"
import type { CardAuthorization, CardAuthorizationStatus } from "./CardAuthorization.ts"
import type {
  CheckoutIntent,
  CheckoutIntentId,
  CheckoutIntentStatus,
  CheckoutIntentTransition
} from "./CheckoutIntent.ts"

/** Which intents a team lists. */
export type CheckoutIntentQuery = GovernedQuery<CheckoutIntentStatus>

/**
 * Storage of checkout intents, governed subjects (`GovernedRepo`). Intents due to expire at `now`: `approved` ones past
 * `expiresAt`, and `pending_approval` ones past the earlier of `expiresAt` and their pending approval's expiry.
 */
export class CheckoutIntentsRepo extends Context.Service<
  CheckoutIntentsRepo,
  GovernedRepo<CheckoutIntent, CheckoutIntentTransition, CheckoutIntentQuery> & {
    /**
     * Reads the intent and locks it until the surrounding transaction ends; every change of an intent takes this lock
     * first (before its card, the accounts and the budget totals), so concurrent changes queue on it.
     */
    readonly lock: (id: CheckoutIntentId) => Effect.Effect<Option.Option<CheckoutIntent>, PersistenceUnavailable>
  }
>()("@svc/domain/CheckoutIntentsRepo") {}

/** Storage of issued cards: one per intent, never with its number or CVC. */
export class CardsRepo extends Context.Service<
  CardsRepo,
  {
    /** Stores a new card; false, storing nothing, when the intent has one already. */
    readonly insert: (card: Card) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly findByToken: (token: string) => Effect.Effect<Option.Option<Card>, PersistenceUnavailable>
    /** The card `id` of the team in `mode`; none for another team's or mode's. */
    readonly findById: (
      teamId: TeamId,
      mode: Mode,
      id: CardId
    ) => Effect.Effect<Option.Option<Card>, PersistenceUnavailable>
    readonly findByIntent: (intentId: CheckoutIntentId) => Effect.Effect<Option.Option<Card>, PersistenceUnavailable>
    /**
     * Records the card's state and answers the card as it then is: a closed card stays closed, whatever a later
     * (possibly out-of-order) event of the issuer says. None when no card has the token.
     */
    readonly setStatus: (
      token: string,
      status: CardStatus,
      updatedAt: string
    ) => Effect.Effect<Option.Option<Card>, PersistenceUnavailable>
  }
>()("@svc/domain/CardsRepo") {}

/** A change of a stored authorization. */
export interface CardAuthorizationUpdate {
  readonly status: CardAuthorizationStatus
  readonly heldAmount: number
  readonly holdTransactionId: LedgerTransactionId | null
  readonly updatedAt: string
}

/** What `CardAuthorizationsRepo.readForDecision` answers for an authorization token. */
export type AuthorizationInputs =
  /** The token was decided before: a replay answers that decision. */
  | { readonly _tag: "Decided"; readonly decision: Pick<CardAuthorization, "status" | "declineReason"> }
  /** No card has the token the authorization names. */
  | { readonly _tag: "NoCard" }
  /**
   * The card and its intent, with the intent's spend account and the team's settlement account of the intent's
   * currency in id order (the settlement account absent when the team has none), as one reading saw them: not locked.
   */
  | {
      readonly _tag: "Card"
      readonly card: Card
      readonly intent: CheckoutIntent
      readonly accounts: ReadonlyArray<LockedAccount>
    }

/** Everything one authorization decision writes, in one unit. */
export interface DecidedAuthorization {
  readonly authorization: CardAuthorization
  /**
   * An approval's hold; with it, the intent moves from `approved` to `authorized` holding the authorization's
   * `heldAmount` as of its `createdAt`. Null for a decline, which writes the authorization alone.
   */
  readonly hold: LedgerTransaction | null
  /** The events an approval publishes (none for a decline). */
  readonly events: ReadonlyArray<DomainEvent>
}

/** Storage of authorization decisions by the issuer's token: the first decision of a token is the only one. */
export class CardAuthorizationsRepo extends Context.Service<
  CardAuthorizationsRepo,
  {
    readonly find: (token: string) => Effect.Effect<Option.Option<CardAuthorization>, PersistenceUnavailable>
    /**
     * Reads, in one statement and without locks, what a new authorization of `token` on the card `cardToken` is
     * decided on: the token's stored decision, else the card with its intent and accounts.
     */
    readonly readForDecision: (
      token: string,
      cardToken: string
    ) => Effect.Effect<AuthorizationInputs, PersistenceUnavailable>
    /**
     * Stores a decision with everything it writes, in one write, if what it was decided on still holds: the token has
     * no decision yet and, for an approval, under the row locks of its intent, card and accounts (taken in that order,
     * the order every change of them follows), the intent is still `approved`, the card still `active` and the spend
     * account's available balance still covers the hold. False, storing nothing at all, when any of that moved.
     */
    readonly insertDecision: (decided: DecidedAuthorization) => Effect.Effect<boolean, PersistenceUnavailable>
    /** Adds `amount` to what a `cleared` authorization had refunded; none when it is not cleared. */
    readonly addRefund: (
      token: string,
      amount: number,
      updatedAt: string
    ) => Effect.Effect<Option.Option<CardAuthorization>, PersistenceUnavailable>
    /** Applies a change only if the authorization's status is still one of `from`; none when it is not. */
    readonly update: (
      token: string,
      from: ReadonlyArray<CardAuthorizationStatus>,
      update: CardAuthorizationUpdate
    ) => Effect.Effect<Option.Option<CardAuthorization>, PersistenceUnavailable>
  }
>()("@svc/domain/CardAuthorizationsRepo") {}
