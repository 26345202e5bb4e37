import { Layer } from "effect"
import { DashboardSessionsRepoMemory } from "./DashboardSessionsRepoMemory.ts"
import { ManagedEntitiesRepoMemory } from "./ManagedEntitiesRepoMemory.ts"
import { ReceiveHandlesRepoMemory } from "./ReceiveHandlesRepoMemory.ts"
import { TeamInvitesRepoMemory } from "./TeamInvitesRepoMemory.ts"
import { TeamPlansRepoMemory } from "./TeamPlansRepoMemory.ts"
import { TeamsRepoMemory } from "./TeamsRepoMemory.ts"
import { UsersRepoMemory } from "./UsersRepoMemory.ts"

export * from "./DashboardSessionsRepoMemory.ts"
export * from "./ManagedEntitiesRepoMemory.ts"
export * from "./ReceiveHandlesRepoMemory.ts"
export * from "./TeamInvitesRepoMemory.ts"
export * from "./TeamPlansRepoMemory.ts"
export * from "./TeamsRepoMemory.ts"
export * from "./UsersRepoMemory.ts"

/** The identity context's ports on the in-memory store. */
export const IdentityPortsMemory = Layer.mergeAll(
  DashboardSessionsRepoMemory,
  ManagedEntitiesRepoMemory,
  ReceiveHandlesRepoMemory,
  TeamInvitesRepoMemory,
  TeamPlansRepoMemory,
  TeamsRepoMemory,
  UsersRepoMemory
)
