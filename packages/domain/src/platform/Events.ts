import { Context, type Effect } from "effect"
import type { TeamId } from "../shared/Ids.ts"
import type { Mode } from "../shared/Money.ts"
import type { PersistenceUnavailable } from "../shared/Persistence.ts"

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
