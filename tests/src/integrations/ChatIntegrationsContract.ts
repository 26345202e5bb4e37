import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import { ChatIntegrationsRepo } from "@svc/domain"
import { Effect, type Layer, Option } from "effect"
import { chatIntegrationOf, integrationsOver, integrationsTeam } from "./IntegrationsSetup.ts"

/** The chat integrations repository's behaviour, on every adapter. */
export const chatIntegrationsContract = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(integrationsOver(ports), { timeout: "60 seconds" })(`chat integrations repository (${name})`, (it) => {
    it.effect("stores one integration per team, found by team and by workspace, equal to what was saved", () =>
      Effect.gen(function* () {
        const repo = yield* ChatIntegrationsRepo
        const { team, owner } = yield* integrationsTeam()
        const workspaceId = `T-${crypto.randomUUID()}`
        assert.isTrue(Option.isNone(yield* repo.forTeam(team.id)))
        const first = chatIntegrationOf(team.id, owner.id, { workspaceId })
        yield* repo.save(first)
        assert.deepStrictEqual(yield* repo.forTeam(team.id), Option.some(first))
        assert.deepStrictEqual(yield* repo.forWorkspace(workspaceId), Option.some(first))
        assert.isTrue(Option.isNone(yield* repo.forWorkspace(`T-${crypto.randomUUID()}`)))
      })
    )

    it.effect("saving again replaces the team's integration, the old workspace no longer answers", () =>
      Effect.gen(function* () {
        const repo = yield* ChatIntegrationsRepo
        const { team, owner } = yield* integrationsTeam()
        const oldWorkspace = `T-${crypto.randomUUID()}`
        const newWorkspace = `T-${crypto.randomUUID()}`
        yield* repo.save(chatIntegrationOf(team.id, owner.id, { workspaceId: oldWorkspace }))
        const second = chatIntegrationOf(team.id, owner.id, {
          workspaceId: newWorkspace,
          channelId: "C0002",
          channelName: "finance",
          scopes: ["chat:write"],
          installedAt: "2026-11-27T09:00:00.000Z"
        })
        yield* repo.save(second)
        assert.deepStrictEqual(yield* repo.forTeam(team.id), Option.some(second))
        assert.isTrue(Option.isNone(yield* repo.forWorkspace(oldWorkspace)))
        assert.deepStrictEqual(yield* repo.forWorkspace(newWorkspace), Option.some(second))
      })
    )

    it.effect("a workspace installed by two teams answers the latest installation", () =>
      Effect.gen(function* () {
        const repo = yield* ChatIntegrationsRepo
        const a = yield* integrationsTeam("A")
        const b = yield* integrationsTeam("B")
        const workspaceId = `T-${crypto.randomUUID()}`
        const later = chatIntegrationOf(b.team.id, b.owner.id, { workspaceId, installedAt: "2026-11-27T10:00:00.000Z" })
        yield* repo.save(later)
        yield* repo.save(
          chatIntegrationOf(a.team.id, a.owner.id, { workspaceId, installedAt: "2026-11-27T08:00:00.000Z" })
        )
        assert.deepStrictEqual(yield* repo.forWorkspace(workspaceId), Option.some(later))
      })
    )

    it.effect("removing answers the removed integration once, and leaves other teams' alone", () =>
      Effect.gen(function* () {
        const repo = yield* ChatIntegrationsRepo
        const a = yield* integrationsTeam("A")
        const b = yield* integrationsTeam("B")
        const mine = chatIntegrationOf(a.team.id, a.owner.id, { workspaceId: `T-${crypto.randomUUID()}` })
        const theirs = chatIntegrationOf(b.team.id, b.owner.id, { workspaceId: `T-${crypto.randomUUID()}` })
        yield* repo.save(mine)
        yield* repo.save(theirs)
        assert.deepStrictEqual(yield* repo.remove(a.team.id), Option.some(mine))
        assert.isTrue(Option.isNone(yield* repo.remove(a.team.id)))
        assert.isTrue(Option.isNone(yield* repo.forTeam(a.team.id)))
        assert.isTrue(Option.isNone(yield* repo.forWorkspace(mine.workspaceId)))
        assert.deepStrictEqual(yield* repo.forTeam(b.team.id), Option.some(theirs))
      })
    )
  })
