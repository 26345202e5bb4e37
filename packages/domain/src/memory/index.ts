import { Layer } from "effect"
import { AgentKeysRepoMemory } from "./AgentKeysRepoMemory.ts"
import { ApiKeysRepoMemory } from "./ApiKeysRepoMemory.ts"
import { BankConnectionsRepoMemory } from "./BankConnectionsRepoMemory.ts"
import { EventOutboxMemory } from "./EventOutboxMemory.ts"
import { IdempotencyStoreMemory } from "./IdempotencyStoreMemory.ts"
import { InboundEventStoreMemory } from "./InboundEventStoreMemory.ts"
import { InboxItemsRepoMemory } from "./InboxItemsRepoMemory.ts"
import { LedgerRepoMemory } from "./LedgerRepoMemory.ts"
import { ManagedEntitiesRepoMemory } from "./ManagedEntitiesRepoMemory.ts"
import { MemoryStore, TransactorMemory } from "./MemoryStore.ts"
import { OAuthRepoMemory } from "./OAuthRepoMemory.ts"
import { RateLimiterMemory } from "./RateLimiterMemory.ts"
import { SpendRequestsRepoMemory } from "./SpendRequestsRepoMemory.ts"
import { TeamPlansRepoMemory } from "./TeamPlansRepoMemory.ts"
import { TeamsRepoMemory } from "./TeamsRepoMemory.ts"
import { UsersRepoMemory } from "./UsersRepoMemory.ts"
import { WebhookDeliveriesRepoMemory } from "./WebhookDeliveriesRepoMemory.ts"
import { WebhookEndpointsRepoMemory } from "./WebhookEndpointsRepoMemory.ts"

export { AgentKeysRepoMemory } from "./AgentKeysRepoMemory.ts"
export { ApiKeysRepoMemory } from "./ApiKeysRepoMemory.ts"
export { BankConnectionsRepoMemory } from "./BankConnectionsRepoMemory.ts"
export { EventOutboxMemory, PublishedEvents } from "./EventOutboxMemory.ts"
export { IdempotencyStoreMemory } from "./IdempotencyStoreMemory.ts"
export { InboundEventStoreMemory } from "./InboundEventStoreMemory.ts"
export { InboxItemsRepoMemory } from "./InboxItemsRepoMemory.ts"
export { LedgerRepoMemory } from "./LedgerRepoMemory.ts"
export { ManagedEntitiesRepoMemory } from "./ManagedEntitiesRepoMemory.ts"
export { MemoryStore, TransactorMemory } from "./MemoryStore.ts"
export { OAuthRepoMemory } from "./OAuthRepoMemory.ts"
export { RateLimiterMemory } from "./RateLimiterMemory.ts"
export { SpendRequestsRepoMemory } from "./SpendRequestsRepoMemory.ts"
export { TeamPlansRepoMemory } from "./TeamPlansRepoMemory.ts"
export { TeamsRepoMemory } from "./TeamsRepoMemory.ts"
export { UsersRepoMemory } from "./UsersRepoMemory.ts"
export { WebhookDeliveriesRepoMemory } from "./WebhookDeliveriesRepoMemory.ts"
export { WebhookEndpointsRepoMemory } from "./WebhookEndpointsRepoMemory.ts"

/** Every port on the in-memory store, sharing one store per build. */
export const PortsMemory = Layer.mergeAll(
  TransactorMemory,
  UsersRepoMemory,
  TeamsRepoMemory,
  LedgerRepoMemory,
  EventOutboxMemory,
  AgentKeysRepoMemory,
  SpendRequestsRepoMemory,
  IdempotencyStoreMemory,
  RateLimiterMemory,
  OAuthRepoMemory,
  ApiKeysRepoMemory,
  InboundEventStoreMemory,
  ManagedEntitiesRepoMemory,
  BankConnectionsRepoMemory,
  TeamPlansRepoMemory,
  InboxItemsRepoMemory,
  WebhookEndpointsRepoMemory,
  WebhookDeliveriesRepoMemory.pipe(Layer.provide(EventOutboxMemory))
).pipe(Layer.provideMerge(MemoryStore.layer))
