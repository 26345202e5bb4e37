import { Context, type Effect } from "effect"
import type { AgentPrincipal, TeamPrincipal } from "../access/index.ts"
import type { ApprovalNotFound, ApproverNotAllowed } from "../approvals/index.ts"
import type { SettlementAccountMissing } from "../ledger/index.ts"
import type { Mode, PageRequest, PersistenceUnavailable, TeamId } from "../shared/index.ts"
import type { CardCredentials, CardIssuerUnavailable } from "./Card.ts"
import type {
  CheckoutIntent,
  CheckoutIntentInvalid,
  CheckoutIntentNotFound,
  CheckoutIntentNotUsable
} from "./CheckoutIntent.ts"
import type { CheckoutIntentQuery } from "./CheckoutRepos.ts"

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
      ApprovalNotFound | ApproverNotAllowed | CheckoutIntentNotUsable | PersistenceUnavailable
    >
    readonly deny: (
      approver: TeamPrincipal,
      approvalId: string,
      note: string | null
    ) => Effect.Effect<
      CheckoutIntent,
      ApprovalNotFound | ApproverNotAllowed | CheckoutIntentNotUsable | PersistenceUnavailable
    >
    /** Expires every unused intent past its deadline; returns how many it expired. */
    readonly expireDue: Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/Checkout") {}
