import type { Ports } from "@svc/api"
import { AuditLog, ChatIntegration, Ledger, Teams, type UserId, Users } from "@svc/domain"
import { Effect, Layer } from "effect"

/** The teams and audit services the integrations build on, over whichever ports the caller provides. */
export const integrationsOver = <E, R>(ports: Layer.Layer<Ports, E, R>) =>
  Layer.mergeAll(Users.layer, Teams.layer, AuditLog.layer).pipe(
    Layer.provideMerge(Ledger.layer),
    Layer.provideMerge(ports)
  )

/** A team made the way users make one, with its owner. */
export const integrationsTeam = (name = "Acme") =>
  Effect.gen(function* () {
    const owner = {
      id: crypto.randomUUID() as UserId,
      email: `owner-${crypto.randomUUID()}@example.com`,
      fullName: "Owner"
    }
    const team = yield* Teams.use((teams) => teams.create(owner, { name }))
    return { team, owner }
  })

/** A stored-shape chat integration of `teamId`, installed by `installedBy`, in workspace `workspaceId`. */
export const chatIntegrationOf = (
  teamId: ChatIntegration["teamId"],
  installedBy: UserId,
  more: Partial<ConstructorParameters<typeof ChatIntegration>[0]> = {}
) =>
  new ChatIntegration({
    id: crypto.randomUUID(),
    teamId,
    workspaceId: "T0001",
    workspaceName: "Acme HQ",
    channelId: "C0001",
    channelName: "approvals",
    botUserId: "U0BOT",
    botToken: "v1.aXY.Y2lwaGVy",
    scopes: ["chat:write", "commands"],
    installedBy,
    installedAt: "2026-11-27T08:00:00.000Z",
    ...more
  })
