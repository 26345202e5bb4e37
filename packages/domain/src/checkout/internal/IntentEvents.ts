import { Effect } from "effect"
import type { DomainEvent } from "../../platform/index.ts"
import { newIdText, nowIso } from "../../shared/index.ts"
import { type CheckoutIntent, checkoutIntentView } from "../CheckoutIntent.ts"

/** What happened to an intent, as events: `checkout_intent.created` and the like. */
export type IntentEventType =
  | "created"
  | "approval_required"
  | "approved"
  | "denied"
  | "canceled"
  | "expired"
  | "card_issued"
  | "authorized"
  | "completed"

/** The events of an intent's change, to its team, with the intent as its team sees it (never a card secret). */
export const intentEvents = (intent: CheckoutIntent, types: ReadonlyArray<IntentEventType>) =>
  Effect.gen(function* () {
    const createdAt = yield* nowIso
    return yield* Effect.forEach(
      types,
      (type): Effect.Effect<DomainEvent> =>
        Effect.map(newIdText, (id) => ({
          id,
          teamId: intent.teamId,
          mode: intent.mode,
          type: `checkout_intent.${type}`,
          data: checkoutIntentView(intent),
          createdAt
        }))
    )
  })
