import { Layer } from "effect"
import { AgentKeysRepoMemory } from "./AgentKeysRepoMemory.ts"
import { EventOutboxMemory } from "./EventOutboxMemory.ts"
import { LedgerRepoMemory } from "./LedgerRepoMemory.ts"
import { MemoryStore, TransactorMemory } from "./MemoryStore.ts"
import { SpendRequestsRepoMemory } from "./SpendRequestsRepoMemory.ts"
import { TeamsRepoMemory } from "./TeamsRepoMemory.ts"
import { UsersRepoMemory } from "./UsersRepoMemory.ts"

export { AgentKeysRepoMemory } from "./AgentKeysRepoMemory.ts"
export { EventOutboxMemory, PublishedEvents } from "./EventOutboxMemory.ts"
export { LedgerRepoMemory } from "./LedgerRepoMemory.ts"
export { MemoryStore, TransactorMemory } from "./MemoryStore.ts"
export { SpendRequestsRepoMemory } from "./SpendRequestsRepoMemory.ts"
export { TeamsRepoMemory } from "./TeamsRepoMemory.ts"
export { UsersRepoMemory } from "./UsersRepoMemory.ts"

/** Every port on the in-memory store, sharing one store per build. */
export const PortsMemory = Layer.mergeAll(
  TransactorMemory,
  UsersRepoMemory,
  TeamsRepoMemory,
  LedgerRepoMemory,
  EventOutboxMemory,
  AgentKeysRepoMemory,
  SpendRequestsRepoMemory
).pipe(Layer.provideMerge(MemoryStore.layer))
