import { Effect } from "effect"
import { type AuditLogRepo, auditDraft } from "../../audit/index.ts"
import type { PersistenceUnavailable } from "../../shared/model.ts"
import type { DashboardSession } from "../DashboardSession.ts"
import type { User } from "../User.ts"

/**
 * Appends `type` about one of the user's sessions (a sign-in or a personal token) to the audit chain of the user's
 * current team; a user without a team has no chain, and nothing is written.
 */
export const auditSession = (
  audit: AuditLogRepo["Service"],
  user: User,
  type: string,
  session: DashboardSession,
  at: string
): Effect.Effect<void, PersistenceUnavailable> =>
  user.currentTeamId === null
    ? Effect.void
    : Effect.flatMap(
        auditDraft(user.currentTeamId, {
          type,
          mode: null,
          at,
          data: {
            userId: user.id,
            email: user.email,
            sessionId: session.id,
            ...(session.name === null ? {} : { name: session.name })
          }
        }),
        (draft) => audit.append([draft])
      )
