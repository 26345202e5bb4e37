import { Effect } from "effect"
import { domainEvents } from "../../platform/index.ts"
import { nowIso } from "../../shared/index.ts"
import { type CheckoutIntent, type CheckoutIntentEventType, checkoutIntentView } from "../CheckoutIntent.ts"

/** What happened to an intent: the name of its event without the `checkout_intent.` prefix. */
export type IntentEventType = CheckoutIntentEventType extends `checkout_intent.${infer Name}` ? Name : never

/** The events of an intent's change, to its team, with the intent as its team sees it (never a card secret). */
export const intentEvents = (intent: CheckoutIntent, types: ReadonlyArray<IntentEventType>) =>
  Effect.flatMap(nowIso, (createdAt) =>
    domainEvents(
      { teamId: intent.teamId, mode: intent.mode, data: checkoutIntentView(intent), createdAt },
      types.map((type) => `checkout_intent.${type}`)
    )
  )
