import { Context, Effect, Schema } from "effect"
import { Mode, newIdText, TeamId } from "../shared/index.ts"
import type { PersistenceUnavailable } from "../shared/model.ts"

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

/** One change of a team's resource: whose outbox gets its events (team, mode), what they carry, and when it happened. */
export interface EventSource {
  readonly teamId: TeamId
  readonly mode: Mode
  readonly data: Readonly<Record<string, unknown>>
  readonly createdAt: string
}

/** The outbox events of one change, one per type, each with its own id and all carrying the change's data and time. */
export const domainEvents = (
  source: EventSource,
  types: ReadonlyArray<string>
): Effect.Effect<ReadonlyArray<DomainEvent>> =>
  Effect.forEach(types, (type) =>
    Effect.map(newIdText, (id) => ({
      id,
      teamId: source.teamId,
      mode: source.mode,
      type,
      data: source.data,
      createdAt: source.createdAt
    }))
  )
