import { Context, type Effect } from "effect"
import type { Mode, PersistenceUnavailable, TeamId } from "../shared/index.ts"

/** Something that happened to a team's resources, delivered to its webhook endpoints. */
export interface DomainEvent {
  readonly id: string
  readonly teamId: TeamId
  readonly mode: Mode
  readonly type: string
  readonly data: Readonly<Record<string, unknown>>
  readonly createdAt: string
}

/** The transactional outbox: publish inside the transaction that makes the change, so an event exists iff the change does. */
export class EventOutbox extends Context.Service<
  EventOutbox,
  { readonly publish: (...events: ReadonlyArray<DomainEvent>) => Effect.Effect<void, PersistenceUnavailable> }
>()("@svc/domain/EventOutbox") {}
