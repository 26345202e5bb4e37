import { Context, type Effect, Schema } from "effect"
import type { PersistenceUnavailable } from "../shared/index.ts"
import { Mode, TeamId } from "../shared/index.ts"

/** Something that happened to a team's resources, delivered to its webhook endpoints. */
export const DomainEvent = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  mode: Mode,
  type: Schema.String,
  data: Schema.Record(Schema.String, Schema.Unknown),
  createdAt: Schema.String
})
export type DomainEvent = typeof DomainEvent.Type

/** The transactional outbox: publish inside the transaction that makes the change, so an event exists iff the change does. */
export class EventOutbox extends Context.Service<
  EventOutbox,
  { readonly publish: (...events: ReadonlyArray<DomainEvent>) => Effect.Effect<void, PersistenceUnavailable> }
>()("@svc/domain/EventOutbox") {}
