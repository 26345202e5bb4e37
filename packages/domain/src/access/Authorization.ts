import type { Role } from "../identity/model.ts"
import type { UserId } from "../shared/model.ts"

/** Whether a team role may manage the team's keys (spending keys, team API keys, anyone's API keys) and policies. */
export const mayManageKeys = (role: Role): boolean => role === "owner" || role === "admin"

/** Whether a member may revoke a generic API key: key managers revoke any, other members only the keys they created. */
export const mayRevokeApiKey = (
  actor: { readonly userId: UserId; readonly role: Role },
  key: { readonly createdBy: UserId }
): boolean => mayManageKeys(actor.role) || key.createdBy === actor.userId
