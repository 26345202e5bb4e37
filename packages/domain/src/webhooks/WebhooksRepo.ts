import { Context, type Effect, type Option } from "effect"
import type { DomainEvent } from "../platform/index.ts"
import type { PageRequest, PersistenceUnavailable, TeamId } from "../shared/model.ts"
import type { DeliveryAttemptResult, WebhookDelivery, WebhookEndpoint } from "./WebhookEndpoint.ts"

/** Storage of webhook endpoints. */
export class WebhookEndpointsRepo extends Context.Service<
  WebhookEndpointsRepo,
  {
    readonly insert: (endpoint: WebhookEndpoint) => Effect.Effect<void, PersistenceUnavailable>
    /** Replaces the stored endpoint with the same id. */
    readonly update: (endpoint: WebhookEndpoint) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (teamId: TeamId, id: string) => Effect.Effect<Option.Option<WebhookEndpoint>, PersistenceUnavailable>
    readonly list: (
      teamId: TeamId,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<WebhookEndpoint>, PersistenceUnavailable>
    /** The enabled endpoints of these teams, oldest first. */
    readonly listEnabled: (
      teamIds: ReadonlyArray<TeamId>
    ) => Effect.Effect<ReadonlyArray<WebhookEndpoint>, PersistenceUnavailable>
  }
>()("@svc/domain/WebhookEndpointsRepo") {}

/** Storage of deliveries, fed from the event outbox. Several workers may share it. */
export class WebhookDeliveriesRepo extends Context.Service<
  WebhookDeliveriesRepo,
  {
    /** Inside a transaction: outbox events not yet fanned out, oldest first, locked (skipping events another worker holds). */
    readonly lockUndispatchedEvents: (
      limit: number
    ) => Effect.Effect<ReadonlyArray<DomainEvent>, PersistenceUnavailable>
    readonly markDispatched: (
      eventIds: ReadonlyArray<string>,
      at: string
    ) => Effect.Effect<void, PersistenceUnavailable>
    /** Inserts deliveries; a first delivery of an event to an endpoint already present is left alone. */
    readonly insert: (...deliveries: ReadonlyArray<WebhookDelivery>) => Effect.Effect<void, PersistenceUnavailable>
    /** Takes up to `limit` pending deliveries due at `now` (skipping those another worker holds) and leases them. */
    readonly claimDue: (input: {
      readonly now: string
      readonly leaseUntil: string
      readonly limit: number
    }) => Effect.Effect<ReadonlyArray<WebhookDelivery>, PersistenceUnavailable>
    readonly recordAttempt: (id: string, result: DeliveryAttemptResult) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (
      teamId: TeamId,
      endpointId: string,
      id: string
    ) => Effect.Effect<Option.Option<WebhookDelivery>, PersistenceUnavailable>
    readonly list: (
      teamId: TeamId,
      endpointId: string,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<WebhookDelivery>, PersistenceUnavailable>
    /**
     * Deletes finished (succeeded or failed) deliveries created before the cutoff (ISO timestamp), but never the
     * original of a redelivery that stays; returns how many.
     */
    readonly purgeFinishedBefore: (cutoff: string) => Effect.Effect<number, PersistenceUnavailable>
    /** Deletes outbox events already fanned out of which no delivery is left; returns how many. */
    readonly purgeDispatchedEvents: Effect.Effect<number, PersistenceUnavailable>
    /** How many pending deliveries are due at `now` and not leased to a worker: the delivery backlog. */
    readonly countDue: (now: string) => Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/WebhookDeliveriesRepo") {}
