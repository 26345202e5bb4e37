import { PlanChanged, SubscriptionEnded, TeamId } from "@svc/domain"
import { Result, Schema } from "effect"
import { decodePart, type EventMapping, Ignored, Required } from "./EventMapping.ts"

/** billing-a subscription event data. */
const SubscriptionData = Schema.Struct({
  team_id: TeamId,
  plan: Required(100),
  status: Required(50)
})

const EndedData = Schema.Struct({ team_id: TeamId })

/** billing-a: created and updated subscriptions set the team's plan; canceled and deleted ones end it. */
export const billingAEvents: EventMapping = (event) => {
  switch (event.type) {
    case "subscription.created":
    case "subscription.updated":
      return decodePart(
        SubscriptionData,
        "subscription data"
      )(event.payload.data).pipe(
        Result.map((data) => new PlanChanged({ teamId: data.team_id, plan: data.plan, status: data.status }))
      )
    case "subscription.canceled":
    case "subscription.deleted":
      return decodePart(
        EndedData,
        "subscription data"
      )(event.payload.data).pipe(Result.map((data) => new SubscriptionEnded({ teamId: data.team_id })))
    default:
      return Result.succeed(Ignored)
  }
}
