import { Layer } from "effect"
import { DashboardSessionsRepoPg } from "./DashboardSessionsRepoPg.ts"
import { ManagedEntitiesRepoPg } from "./ManagedEntitiesRepoPg.ts"
import { ReceiveHandlesRepoPg } from "./ReceiveHandlesRepoPg.ts"
import { TeamInvitesRepoPg } from "./TeamInvitesRepoPg.ts"
import { TeamPlansRepoPg } from "./TeamPlansRepoPg.ts"
import { TeamsRepoPg } from "./TeamsRepoPg.ts"
import { UsersRepoPg } from "./UsersRepoPg.ts"

export * from "./DashboardSessionsRepoPg.ts"
export * from "./ManagedEntitiesRepoPg.ts"
export * from "./ReceiveHandlesRepoPg.ts"
export * from "./TeamInvitesRepoPg.ts"
export * from "./TeamPlansRepoPg.ts"
export * from "./TeamsRepoPg.ts"
export * from "./UsersRepoPg.ts"

/** The identity context's ports on Postgres. */
export const IdentityPortsPg = Layer.mergeAll(
  DashboardSessionsRepoPg,
  ManagedEntitiesRepoPg,
  ReceiveHandlesRepoPg,
  TeamInvitesRepoPg,
  TeamPlansRepoPg,
  TeamsRepoPg,
  UsersRepoPg
)
