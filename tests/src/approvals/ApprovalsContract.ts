import { assert, layer } from "@effect/vitest"
import {
  type Approval,
  ApprovalId,
  type ApprovalStep,
  ApprovalsRepo,
  type ApprovalTier,
  approvalView,
  DEFAULT_APPROVERS,
  newId,
  type Team,
  TeamId,
  TeamsRepo,
  type Transactor,
  type UserId,
  UsersRepo
} from "@svc/domain"
import { Effect, type Layer, Option } from "effect"

type Ports = Transactor | UsersRepo | TeamsRepo | ApprovalsRepo

const setup = Effect.gen(function* () {
  const decider = yield* UsersRepo.use((users) =>
    users.ensure({ id: crypto.randomUUID() as UserId, email: "owner@example.com", fullName: null })
  )
  const team: Team = {
    id: TeamId.make(crypto.randomUUID()),
    name: "Acme",
    baseCurrency: "USD",
    createdAt: "2026-11-01T00:00:00.000Z"
  }
  yield* TeamsRepo.use((teams) => teams.insert(team))
  const approval: Approval = {
    id: yield* newId(ApprovalId),
    teamId: team.id,
    mode: "test",
    subjectType: "spend_request",
    subjectId: crypto.randomUUID(),
    status: "pending",
    expiresAt: "2026-11-02T00:00:00.000Z",
    decidedAt: null,
    decidedBy: null,
    note: null,
    createdAt: "2026-11-01T00:00:00.000Z",
    updatedAt: "2026-11-01T00:00:00.000Z",
    approvers: DEFAULT_APPROVERS,
    spendingKeyId: null,
    separateFrom: null,
    decisions: []
  }
  yield* ApprovalsRepo.use((repo) => repo.insert(approval))
  return { approval, decider: decider.id }
})

/** The behaviour every ApprovalsRepo adapter must show. */
export const approvalsContract = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "60 seconds" })(`ApprovalsRepo (${name})`, (it) => {
    it.effect("stores an approval and finds it only within its team", () =>
      Effect.gen(function* () {
        const { approval } = yield* setup
        const repo = yield* ApprovalsRepo
        assert.deepStrictEqual(yield* repo.find(approval.teamId, approval.id), Option.some(approval))
        assert.isTrue(Option.isNone(yield* repo.find(TeamId.make(crypto.randomUUID()), approval.id)))
        assert.isTrue(Option.isNone(yield* repo.find(approval.teamId, yield* newId(ApprovalId))))
      })
    )

    it.effect(
      "decides a pending approval once: the decision, decider and note are kept; later decisions get none",
      () =>
        Effect.gen(function* () {
          const { approval, decider } = yield* setup
          const repo = yield* ApprovalsRepo
          const decidedAt = "2026-11-01T10:00:00.000Z"
          const approved = yield* repo.decide(approval.teamId, approval.id, {
            status: "approved",
            decidedAt,
            decidedBy: decider,
            note: "ok"
          })
          const expected: Approval = {
            ...approval,
            status: "approved",
            decidedAt,
            decidedBy: decider,
            note: "ok",
            updatedAt: decidedAt
          }
          assert.deepStrictEqual(approved, Option.some(expected))
          const late = yield* repo.decide(approval.teamId, approval.id, {
            status: "denied",
            decidedAt: "2026-11-01T11:00:00.000Z",
            decidedBy: decider,
            note: null
          })
          assert.isTrue(Option.isNone(late))
          assert.deepStrictEqual(yield* repo.find(approval.teamId, approval.id), Option.some(expected))
        })
    )

    it.effect("of concurrent decisions exactly one wins", () =>
      Effect.gen(function* () {
        const { approval, decider } = yield* setup
        const repo = yield* ApprovalsRepo
        const outcomes = ["approved", "denied", "expired", "canceled", "approved", "denied"] as const
        const results = yield* Effect.forEach(
          outcomes,
          (status) =>
            repo.decide(approval.teamId, approval.id, {
              status,
              decidedAt: "2026-11-01T10:00:00.000Z",
              decidedBy: status === "approved" || status === "denied" ? decider : null,
              note: null
            }),
          { concurrency: "unbounded" }
        )
        const winners = results.filter(Option.isSome)
        assert.strictEqual(winners.length, 1)
        assert.deepStrictEqual(yield* repo.find(approval.teamId, approval.id), winners[0])
      })
    )

    it.effect("counts the pending approvals of every team, and a decided one no more", () =>
      Effect.gen(function* () {
        const repo = yield* ApprovalsRepo
        const before = yield* repo.countPending
        const { approval } = yield* setup
        yield* setup
        assert.strictEqual(yield* repo.countPending, before + 2)
        yield* repo.decide(approval.teamId, approval.id, {
          status: "expired",
          decidedAt: "2026-11-01T10:00:00.000Z",
          decidedBy: null,
          note: null
        })
        assert.strictEqual(yield* repo.countPending, before + 1)
      })
    )

    it.effect("another team cannot decide the approval", () =>
      Effect.gen(function* () {
        const { approval } = yield* setup
        const repo = yield* ApprovalsRepo
        const other = yield* repo.decide(TeamId.make(crypto.randomUUID()), approval.id, {
          status: "expired",
          decidedAt: "2026-11-01T10:00:00.000Z",
          decidedBy: null,
          note: null
        })
        assert.isTrue(Option.isNone(other))
        assert.strictEqual(Option.getOrThrow(yield* repo.find(approval.teamId, approval.id)).status, "pending")
      })
    )

    it.effect(
      "records each member's step in order, locks only a pending approval, and keeps a decided one's steps",
      () =>
        Effect.gen(function* () {
          const { approval, decider } = yield* setup
          const other = yield* UsersRepo.use((users) =>
            users.ensure({ id: crypto.randomUUID() as UserId, email: "admin@example.com", fullName: null })
          )
          const repo = yield* ApprovalsRepo
          const locked = yield* repo.lockPending(approval.teamId, approval.id)
          assert.deepStrictEqual(locked, Option.some(approval))
          const first: ApprovalStep = {
            userId: other.id,
            role: "admin",
            decision: "approved",
            note: "fine by me",
            decidedAt: "2026-11-01T09:00:00.000Z"
          }
          const second: ApprovalStep = {
            userId: decider,
            role: "owner",
            decision: "approved",
            note: null,
            decidedAt: "2026-11-01T09:30:00.000Z"
          }
          yield* repo.insertStep(approval.teamId, approval.id, first)
          yield* repo.insertStep(approval.teamId, approval.id, second)
          const stepped = { ...approval, decisions: [first, second] }
          assert.deepStrictEqual(yield* repo.find(approval.teamId, approval.id), Option.some(stepped))
          assert.deepStrictEqual(approvalView(stepped, null).approvals, {
            ...DEFAULT_APPROVERS,
            received: 2,
            decisions: [first, second]
          })
          assert.isTrue(Option.isNone(yield* repo.lockPending(TeamId.make(crypto.randomUUID()), approval.id)))
          const decided = yield* repo.decide(approval.teamId, approval.id, {
            status: "approved",
            decidedAt: "2026-11-01T09:30:00.000Z",
            decidedBy: decider,
            note: null
          })
          assert.deepStrictEqual(
            Option.map(decided, (a) => a.decisions),
            Option.some([first, second])
          )
          assert.isTrue(Option.isNone(yield* repo.lockPending(approval.teamId, approval.id)))
        })
    )

    it.effect("keeps who must approve an approval and its key's creator as it was made", () =>
      Effect.gen(function* () {
        const { approval, decider } = yield* setup
        const repo = yield* ApprovalsRepo
        const tiered: Approval = {
          ...approval,
          id: yield* newId(ApprovalId),
          subjectId: crypto.randomUUID(),
          approvers: { required: 2, roles: ["owner"], requireOwner: true },
          separateFrom: decider
        }
        yield* repo.insert(tiered)
        assert.deepStrictEqual(yield* repo.find(tiered.teamId, tiered.id), Option.some(tiered))
      })
    )

    it.effect("stores a team's approval tiers whole, replacing the ones before", () =>
      Effect.gen(function* () {
        const { approval, decider } = yield* setup
        const repo = yield* ApprovalsRepo
        assert.deepStrictEqual(yield* repo.tiers(approval.teamId), [])
        const top: ApprovalTier = { minAmount: 50_000, approvals: 2, roles: ["admin", "owner"], requireOwner: true }
        const tiers: ReadonlyArray<ApprovalTier> = [{ minAmount: 5_000, approvals: 1, roles: ["admin", "owner"] }, top]
        yield* repo.setTiers(approval.teamId, tiers, decider, "2026-11-01T09:00:00.000Z")
        assert.deepStrictEqual(yield* repo.tiers(approval.teamId), tiers)
        yield* repo.setTiers(approval.teamId, [top], decider, "2026-11-01T10:00:00.000Z")
        assert.deepStrictEqual(yield* repo.tiers(approval.teamId), [top])
        assert.deepStrictEqual(yield* repo.tiers(TeamId.make(crypto.randomUUID())), [])
      })
    )
  })
