import { Effect } from "effect"
import type { DomainEvent } from "../../platform/index.ts"
import { newIdText, nowIso } from "../../shared/index.ts"
import { type CheckoutIntent, type CheckoutIntentEventType, checkoutIntentView } from "../CheckoutIntent.ts"

/** What happened to an intent: the name of its event without the `checkout_intent.` prefix. */
export type IntentEventType = CheckoutIntentEventType extends `checkout_intent.${infer Name}` ? Name : never

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
