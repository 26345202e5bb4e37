import { Layer } from "effect"
import { AgentKeysRepoMemory } from "./access/AgentKeysRepoMemory.ts"
import { ApiKeysRepoMemory } from "./access/ApiKeysRepoMemory.ts"
import { BankConnectionsRepoMemory } from "./finance/banking/BankConnectionsRepoMemory.ts"
import { InboxItemsRepoMemory } from "./finance/documents/InboxItemsRepoMemory.ts"
import { ManagedEntitiesRepoMemory } from "./identity/ManagedEntitiesRepoMemory.ts"
import { TeamPlansRepoMemory } from "./identity/TeamPlansRepoMemory.ts"
import { TeamsRepoMemory } from "./identity/TeamsRepoMemory.ts"
import { UsersRepoMemory } from "./identity/UsersRepoMemory.ts"
import { InboundEventStoreMemory } from "./inbound/InboundEventStoreMemory.ts"
import { LedgerRepoMemory } from "./ledger/LedgerRepoMemory.ts"
import { OAuthRepoMemory } from "./oauth/OAuthRepoMemory.ts"
import { EventOutboxMemory } from "./platform/EventOutboxMemory.ts"
import { IdempotencyStoreMemory } from "./platform/IdempotencyStoreMemory.ts"
import { RateLimiterMemory } from "./platform/RateLimiterMemory.ts"
import { MemoryStore, TransactorMemory } from "./shared/MemoryStore.ts"
import { SpendRequestsRepoMemory } from "./spend/SpendRequestsRepoMemory.ts"
import { WebhookDeliveriesRepoMemory } from "./webhooks/WebhookDeliveriesRepoMemory.ts"
import { WebhookEndpointsRepoMemory } from "./webhooks/WebhookEndpointsRepoMemory.ts"

export { AgentKeysRepoMemory } from "./access/AgentKeysRepoMemory.ts"
export { ApiKeysRepoMemory } from "./access/ApiKeysRepoMemory.ts"
export { BankConnectionsRepoMemory } from "./finance/banking/BankConnectionsRepoMemory.ts"
export { InboxItemsRepoMemory } from "./finance/documents/InboxItemsRepoMemory.ts"
export { ManagedEntitiesRepoMemory } from "./identity/ManagedEntitiesRepoMemory.ts"
export { TeamPlansRepoMemory } from "./identity/TeamPlansRepoMemory.ts"
export { TeamsRepoMemory } from "./identity/TeamsRepoMemory.ts"
export { UsersRepoMemory } from "./identity/UsersRepoMemory.ts"
export { InboundEventStoreMemory } from "./inbound/InboundEventStoreMemory.ts"
export { LedgerRepoMemory } from "./ledger/LedgerRepoMemory.ts"
export { OAuthRepoMemory } from "./oauth/OAuthRepoMemory.ts"
export { EventOutboxMemory, PublishedEvents } from "./platform/EventOutboxMemory.ts"
export { IdempotencyStoreMemory } from "./platform/IdempotencyStoreMemory.ts"
export { RateLimiterMemory } from "./platform/RateLimiterMemory.ts"
export { MemoryStore, TransactorMemory } from "./shared/MemoryStore.ts"
export { SpendRequestsRepoMemory } from "./spend/SpendRequestsRepoMemory.ts"
export { WebhookDeliveriesRepoMemory } from "./webhooks/WebhookDeliveriesRepoMemory.ts"
export { WebhookEndpointsRepoMemory } from "./webhooks/WebhookEndpointsRepoMemory.ts"

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
