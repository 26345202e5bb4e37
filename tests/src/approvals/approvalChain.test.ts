import { assert, describe, it } from "@effect/vitest"
import {
  type ApprovalStep,
  type ApprovalTier,
  approvalTierOf,
  checkApprovalRules,
  DEFAULT_APPROVERS,
  evaluateSpend,
  NO_USAGE,
  type RequiredApprovers,
  type Role,
  stepOutcome
} from "@svc/domain"
import fc from "fast-check"

const NOW = Date.parse("2026-11-10T12:00:00.000Z")

const TIERS: ReadonlyArray<ApprovalTier> = [
  { minAmount: 5_000, approvals: 1, roles: ["admin", "owner"] },
  { minAmount: 50_000, approvals: 2, roles: ["admin", "owner"], requireOwner: true }
]

type Prior = Pick<ApprovalStep, "userId" | "role" | "decision">

const approval = (
  approvers: RequiredApprovers,
  decisions: ReadonlyArray<Prior> = [],
  separateFrom: string | null = null
) => ({
  approvers,
  decisions,
  separateFrom
})

describe("approval tiers", () => {
  it.each([
    [0, -1, DEFAULT_APPROVERS],
    [4_999, -1, DEFAULT_APPROVERS],
    [5_000, 0, { required: 1, roles: ["admin", "owner"], requireOwner: false }],
    [49_999, 0, { required: 1, roles: ["admin", "owner"], requireOwner: false }],
    [50_000, 1, { required: 2, roles: ["admin", "owner"], requireOwner: true }],
    [10_000_000, 1, { required: 2, roles: ["admin", "owner"], requireOwner: true }]
  ] as const)("an amount of %i reaches tier %i", (amount, index, approvers) => {
    assert.deepStrictEqual(approvalTierOf(TIERS, amount), { index, approvers })
  })

  it("the first tier routes to approval with who approves; below it, the policy's threshold still does", () => {
    const at = (amount: number, approvalThreshold?: number) =>
      evaluateSpend({
        policy: approvalThreshold === undefined ? {} : { approvalThreshold },
        amount,
        merchant: { name: "Acme" },
        now: NOW,
        spent: NO_USAGE,
        categorySpent: NO_USAGE,
        recentRequests: [],
        requestsToday: 0,
        available: 1_000_000,
        approvalTiers: TIERS
      })
    assert.deepStrictEqual(at(4_999), { outcome: "approved", reasons: [] })
    assert.deepStrictEqual(at(60_000).reasons, [
      {
        code: "approval_threshold",
        message: "amount 60000 is at or above the approval threshold 5000",
        limit: 5000,
        requested: 60000,
        approvers: { required: 2, roles: ["admin", "owner"], requireOwner: true }
      }
    ])
    assert.deepStrictEqual(at(1_000, 500).reasons[0]?.approvers, DEFAULT_APPROVERS)
    assert.strictEqual(at(5_000, 9_000).outcome, "pending_approval")
  })

  it.each([
    [
      "unordered tiers",
      [
        { minAmount: 50_000, approvals: 1, roles: ["admin"] },
        { minAmount: 5_000, approvals: 1, roles: ["admin"] }
      ],
      "tiers[1].minAmount"
    ],
    [
      "overlapping tiers (the same minAmount)",
      [
        { minAmount: 5_000, approvals: 1, roles: ["admin"] },
        { minAmount: 5_000, approvals: 2, roles: ["admin"] }
      ],
      "tiers[1].minAmount"
    ],
    ["a role listed twice", [{ minAmount: 1, approvals: 1, roles: ["admin", "admin"] }], "tiers[0].roles"],
    [
      "requireOwner without the owner role",
      [{ minAmount: 1, approvals: 1, roles: ["admin"], requireOwner: true }],
      "tiers[0].roles"
    ],
    [
      "a quorum larger than the eligible members",
      [{ minAmount: 1, approvals: 3, roles: ["admin", "owner"] }],
      "tiers[0].approvals"
    ]
  ] as const)("refuses %s, naming the field", (_, tiers, field) => {
    const problem = checkApprovalRules(tiers, ["owner", "admin", "member"])
    assert.strictEqual(problem?.field, field)
  })

  it("says how many members are eligible when the quorum is too large", () => {
    const problem = checkApprovalRules(
      [{ minAmount: 1, approvals: 3, roles: ["admin", "owner"] }],
      ["owner", "admin", "member", "member"]
    )
    assert.match(problem?.message ?? "", /larger than the team's 2 eligible members/u)
  })

  it("accepts ordered tiers whose quorums the members can meet", () => {
    assert.isUndefined(checkApprovalRules(TIERS, ["owner", "admin"]))
    assert.isUndefined(checkApprovalRules([], ["owner"]))
  })
})

describe("the quorum rule", () => {
  const two: RequiredApprovers = { required: 2, roles: ["admin", "owner"], requireOwner: false }

  it("counts distinct members: the second approval reaches a quorum of two", () => {
    const first = stepOutcome(approval(two), { userId: "a", role: "admin", decision: "approved" })
    assert.deepStrictEqual(first, { _tag: "recorded", received: 1 })
    const second = stepOutcome(approval(two, [{ userId: "a", role: "admin", decision: "approved" }]), {
      userId: "b",
      role: "owner",
      decision: "approved"
    })
    assert.deepStrictEqual(second, { _tag: "quorum_reached", received: 2 })
  })

  it("refuses the same member twice, whatever they decide the second time", () => {
    for (const decision of ["approved", "denied"] as const) {
      const outcome = stepOutcome(approval(two, [{ userId: "a", role: "admin", decision: "approved" }]), {
        userId: "a",
        role: "admin",
        decision
      })
      assert.strictEqual(outcome._tag === "refused" && outcome.reason, "already_decided")
    }
  })

  it("the first deny denies, even after approvals", () => {
    const outcome = stepOutcome(approval(two, [{ userId: "a", role: "admin", decision: "approved" }]), {
      userId: "b",
      role: "admin",
      decision: "denied"
    })
    assert.deepStrictEqual(outcome, { _tag: "denied" })
  })

  it("refuses members whose role the tier does not list", () => {
    const outcome = stepOutcome(approval(two), { userId: "m", role: "member", decision: "approved" })
    assert.strictEqual(outcome._tag === "refused" && outcome.reason, "not_eligible")
    const deny = stepOutcome(approval(two), { userId: "m", role: "member", decision: "denied" })
    assert.strictEqual(deny._tag === "refused" && deny.reason, "not_eligible")
  })

  it("keeps the last slot for the owner when the tier requires one", () => {
    const withOwner: RequiredApprovers = { ...two, requireOwner: true }
    const adminsOnly = stepOutcome(approval(withOwner, [{ userId: "a", role: "admin", decision: "approved" }]), {
      userId: "b",
      role: "admin",
      decision: "approved"
    })
    assert.strictEqual(adminsOnly._tag === "refused" && adminsOnly.reason, "owner_required")
    const owner = stepOutcome(approval(withOwner, [{ userId: "a", role: "admin", decision: "approved" }]), {
      userId: "o",
      role: "owner",
      decision: "approved"
    })
    assert.strictEqual(owner._tag, "quorum_reached")
  })

  it("the key's creator cannot be the only approver above the first tier, but may be one of them", () => {
    const one: RequiredApprovers = { required: 1, roles: ["admin", "owner"], requireOwner: false }
    const alone = stepOutcome(approval(one, [], "creator"), { userId: "creator", role: "admin", decision: "approved" })
    assert.strictEqual(alone._tag === "refused" && alone.reason, "separation_of_duties")
    const other = stepOutcome(approval(one, [], "creator"), { userId: "b", role: "admin", decision: "approved" })
    assert.strictEqual(other._tag, "quorum_reached")
    const creatorFirst = stepOutcome(approval(two, [], "creator"), {
      userId: "creator",
      role: "admin",
      decision: "approved"
    })
    assert.strictEqual(creatorFirst._tag, "recorded")
    const thenOther = stepOutcome(
      approval(two, [{ userId: "creator", role: "admin", decision: "approved" }], "creator"),
      { userId: "b", role: "owner", decision: "approved" }
    )
    assert.strictEqual(thenOther._tag, "quorum_reached")
    const creatorDenies = stepOutcome(approval(one, [], "creator"), {
      userId: "creator",
      role: "admin",
      decision: "denied"
    })
    assert.strictEqual(creatorDenies._tag, "denied")
  })

  const ROLES: ReadonlyArray<Role> = ["owner", "admin", "member"]
  const arbitraryApprovers = fc.record({
    required: fc.integer({ min: 1, max: 5 }),
    roles: fc.subarray([...ROLES], { minLength: 1 }),
    requireOwner: fc.boolean()
  })
  const arbitrarySteps = fc.array(
    fc.record({
      userId: fc.constantFrom("u1", "u2", "u3", "u4", "u5", "u6", "creator"),
      role: fc.constantFrom(...ROLES),
      decision: fc.constantFrom("approved" as const, "approved" as const, "denied" as const)
    }),
    { maxLength: 12 }
  )

  it("a quorum is never reached with fewer distinct eligible members than required, nor without whom it needs", () => {
    fc.assert(
      fc.property(
        arbitraryApprovers,
        arbitrarySteps,
        fc.constantFrom(null, "creator"),
        (approvers, attempts, separateFrom) => {
          let recorded: Array<Prior> = []
          for (const step of attempts) {
            const outcome = stepOutcome(approval(approvers, recorded, separateFrom), step)
            if (outcome._tag === "refused") continue
            recorded = [...recorded, step]
            if (outcome._tag === "denied") {
              assert.isTrue(approvers.roles.includes(step.role))
              return
            }
            const approvals = recorded.filter((d) => d.decision === "approved")
            const members = new Set(approvals.map((d) => d.userId))
            assert.strictEqual(members.size, approvals.length, "a member counted twice")
            assert.isTrue(
              approvals.every((d) => approvers.roles.includes(d.role)),
              "an ineligible member counted"
            )
            assert.strictEqual(outcome.received, approvals.length)
            if (outcome._tag === "quorum_reached") {
              assert.strictEqual(members.size, approvers.required)
              if (approvers.requireOwner) assert.isTrue(approvals.some((d) => d.role === "owner"))
              if (separateFrom !== null) assert.isTrue(approvals.some((d) => d.userId !== separateFrom))
              return
            }
            assert.isBelow(members.size, approvers.required)
          }
        }
      )
    )
  })
})

describe("spending_frozen", () => {
  it("is the first reason and denies whatever else would have decided, reporting the other denials too", () => {
    const frozen = { scope: "team", reason: "incident", frozenAt: "2026-11-01T00:00:00.000Z" } as const
    const input = {
      policy: { perRequestLimit: 100 },
      amount: 1_000,
      merchant: { name: "Acme" },
      now: NOW,
      spent: NO_USAGE,
      categorySpent: NO_USAGE,
      recentRequests: [],
      requestsToday: 0,
      available: 1_000_000
    }
    assert.deepStrictEqual(
      evaluateSpend({ ...input, frozen }).reasons.map((r) => r.code),
      ["spending_frozen", "amount_over_limit"]
    )
    const small = evaluateSpend({ ...input, amount: 10, frozen })
    assert.deepStrictEqual(small, {
      outcome: "denied",
      reasons: [
        { code: "spending_frozen", message: "the team's spending is frozen since 2026-11-01T00:00:00.000Z: incident" }
      ]
    })
    const wouldPend = evaluateSpend({ ...input, amount: 10, policy: { approvalThreshold: 1 }, frozen })
    assert.deepStrictEqual(
      wouldPend.reasons.map((r) => r.code),
      ["spending_frozen"]
    )
    assert.strictEqual(evaluateSpend({ ...input, amount: 10 }).outcome, "approved")
  })

  it("denies every request while frozen, of any amount and policy", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 0, max: 1e9 }), (amount, available) => {
        const decision = evaluateSpend({
          policy: {},
          amount,
          merchant: { name: "Acme" },
          now: NOW,
          spent: NO_USAGE,
          categorySpent: NO_USAGE,
          recentRequests: [],
          requestsToday: 0,
          available,
          frozen: { scope: "spending_key", reason: "lost laptop", frozenAt: "2026-11-01T00:00:00.000Z" }
        })
        assert.strictEqual(decision.outcome, "denied")
        assert.strictEqual(decision.reasons[0]?.code, "spending_frozen")
      })
    )
  })
})
