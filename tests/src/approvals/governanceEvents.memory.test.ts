import { assert, layer } from "@effect/vitest"
import { PortsMemory, PublishedEvents } from "@svc/adapters-memory"
import {
  ApprovalChains,
  type DomainEvent,
  SpendFreezes,
  SpendRequests,
  type TeamPrincipal,
  TeamsRepo,
  type UserId,
  UsersRepo
} from "@svc/domain"
import { Effect, Layer, Ref } from "effect"
import { domainOver, fundedAgent, spend } from "../spend/SpendSetup.ts"

const published = Effect.flatMap(PublishedEvents, Ref.get)

/** The events of `teamId` since `from` whose type starts with `prefix`. */
const eventsOf = (from: number, teamId: string, prefix: string) =>
  Effect.map(published, (events: ReadonlyArray<DomainEvent>) =>
    events.slice(from).filter((e) => e.teamId === teamId && e.type.startsWith(prefix))
  )

layer(domainOver(PortsMemory).pipe(Layer.provideMerge(PortsMemory)))(
  "approval steps and freezes are published (in-memory)",
  (it) => {
    it.effect("each step is sent, and the step that reaches the quorum says so", () =>
      Effect.gen(function* () {
        const { team, agent, approver } = yield* fundedAgent({ funds: 100_000 })
        const adminId = crypto.randomUUID() as UserId
        yield* UsersRepo.use((users) => users.ensure({ id: adminId, email: "admin@example.com", fullName: null }))
        yield* TeamsRepo.use((teams) => teams.addMember(team.id, adminId, "admin"))
        const admin: TeamPrincipal = { ...approver, userId: adminId, role: "admin", credentialId: `session:${adminId}` }
        yield* ApprovalChains.use((c) =>
          c.set(approver, team.id, { tiers: [{ minAmount: 1_000, approvals: 2, roles: ["owner", "admin"] }] })
        )
        const pending = yield* spend(agent, 2_000)
        const from = (yield* published).length
        yield* SpendRequests.use((s) => s.approve(admin, pending.approval!.id, "first"))
        const afterFirst = yield* eventsOf(from, team.id, "approval.")
        assert.deepStrictEqual(
          afterFirst.map((e) => e.type),
          ["approval.step_recorded"]
        )
        const data = afterFirst[0]!.data as {
          id: string
          subjectType: string
          subjectId: string
          step: { userId: string; decision: string; note: string }
          approvals: { required: number; received: number }
        }
        assert.strictEqual(data.id, pending.approval!.id)
        assert.strictEqual(data.subjectType, "spend_request")
        assert.strictEqual(data.subjectId, pending.id)
        assert.deepStrictEqual([data.step.userId, data.step.decision, data.step.note], [adminId, "approved", "first"])
        assert.deepStrictEqual([data.approvals.required, data.approvals.received], [2, 1])
        const approved = yield* SpendRequests.use((s) => s.approve(approver, pending.approval!.id, null))
        assert.strictEqual(approved.status, "approved")
        assert.deepStrictEqual(
          (yield* eventsOf(from, team.id, "")).map((e) => e.type),
          ["approval.step_recorded", "approval.step_recorded", "approval.quorum_reached", "spend_request.approved"]
        )
      })
    )

    it.effect("a freeze and its lift are sent with who and why, in both modes for a team freeze", () =>
      Effect.gen(function* () {
        const { team, approver } = yield* fundedAgent({ funds: 0 })
        const from = (yield* published).length
        const freezes = yield* SpendFreezes
        const frozen = yield* freezes.freeze(approver, team.id, { reason: "  audit in progress " })
        assert.strictEqual(frozen.reason, "audit in progress")
        yield* freezes.lift(approver, team.id, null)
        const events = yield* eventsOf(from, team.id, "spend_freeze.")
        assert.deepStrictEqual(
          events.map((e) => `${e.type}:${e.mode}`),
          [
            "spend_freeze.created:live",
            "spend_freeze.created:test",
            "spend_freeze.lifted:live",
            "spend_freeze.lifted:test"
          ]
        )
        const created = events[0]!.data as { frozenBy: string; reason: string; scope: string }
        assert.deepStrictEqual(
          [created.frozenBy, created.reason, created.scope],
          [approver.userId, "audit in progress", "team"]
        )
        const lifted = events[2]!.data as { liftedBy: string }
        assert.strictEqual(lifted.liftedBy, approver.userId)
      })
    )
  }
)
