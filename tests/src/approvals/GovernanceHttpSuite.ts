import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { Role, TeamId } from "@svc/domain"
import { type Context, Effect, type Layer } from "effect"
import { intentBody } from "../checkout/CheckoutHttpSetup.ts"
import { createSpend } from "../spend/SpendHttpSetup.ts"
import { balance, type Client, type KeyedTeam, setUpKeyedTeam, withAppOnPorts } from "../support/HttpScenarios.ts"
import { memberToken } from "../support/TeamMembers.ts"

const spendBody = (amount: number) => ({
  amount,
  currency: "USD",
  merchant: { name: "Acme Cloud", category: "software" },
  purpose: "compute"
})

const TWO_TIERS = {
  tiers: [
    { minAmount: 5_000, approvals: 1, roles: ["admin", "owner"] },
    { minAmount: 50_000, approvals: 2, roles: ["admin", "owner"] }
  ]
}

/** Approval chains, quorum, separation of duties and the kill switch over HTTP, on the given ports. */
export const governanceHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(
    `approval chains and spend freezes (${name})`,
    (it) => {
      const run = <A, E2>(context: Context.Context<Ports>, effect: Effect.Effect<A, E2, Ports>) =>
        Effect.runPromise(Effect.provide(effect, context))

      /** A session of a new member of `team` with `role`. */
      const member = async (context: Context.Context<Ports>, team: KeyedTeam, role: Role) =>
        (await run(context, memberToken(team.id as TeamId, role))).token

      const setRules = (app: Client, token: string, body: unknown) =>
        app.call("PUT", "/treasury/approval-rules", { token, body })

      const decide = (app: Client, token: string, approvalId: string, outcome: "approve" | "deny", note?: string) =>
        app.call("POST", `/treasury/approvals/${approvalId}/${outcome}`, {
          token,
          body: note === undefined ? {} : { note }
        })

      it.effect("a chain with bad tiers is refused naming the field, and never applies half", () =>
        withAppOnPorts(async (app, context) => {
          const acme = await setUpKeyedTeam(app)
          await member(context, acme, "admin")
          const memberOnly = await member(context, acme, "member")
          const unordered = await setRules(app, acme.owner, {
            tiers: [
              { minAmount: 50_000, approvals: 1, roles: ["admin"] },
              { minAmount: 5_000, approvals: 1, roles: ["admin"] }
            ]
          })
          assert.strictEqual(unordered.status, 400, JSON.stringify(unordered.body))
          assert.deepStrictEqual(
            unordered.body.details.map((d: { path: string }) => d.path),
            ["tiers[1].minAmount"]
          )
          const overlapping = await setRules(app, acme.owner, {
            tiers: [
              { minAmount: 5_000, approvals: 1, roles: ["admin"] },
              { minAmount: 5_000, approvals: 1, roles: ["owner"] }
            ]
          })
          assert.strictEqual(overlapping.status, 400)
          const quorum = await setRules(app, acme.owner, {
            tiers: [{ minAmount: 1_000, approvals: 3, roles: ["admin", "owner"] }]
          })
          assert.strictEqual(quorum.status, 400)
          assert.strictEqual(quorum.body.details[0].path, "tiers[0].approvals")
          assert.match(quorum.body.message, /2 eligible members/u)
          for (const bad of [
            { minAmount: -1, approvals: 1, roles: ["admin"] },
            { minAmount: 1.5, approvals: 1, roles: ["admin"] },
            { minAmount: 1, approvals: 0, roles: ["admin"] },
            { minAmount: 1, approvals: 1.5, roles: ["admin"] },
            { minAmount: 1, approvals: 1, roles: [] },
            { minAmount: 1, approvals: 1, roles: ["cfo"] }
          ]) {
            const answer = await setRules(app, acme.owner, { tiers: [bad] })
            assert.strictEqual(answer.status, 400, JSON.stringify(bad))
            assert.strictEqual(answer.body.error, "validation_failed")
          }
          const byMember = await setRules(app, memberOnly, TWO_TIERS)
          assert.strictEqual(byMember.status, 403)
          assert.deepStrictEqual((await app.call("GET", "/treasury/approval-rules", { token: acme.owner })).body, {
            tiers: []
          })
          const set = await setRules(app, acme.owner, TWO_TIERS)
          assert.strictEqual(set.status, 200, JSON.stringify(set.body))
          assert.deepStrictEqual(
            (await app.call("GET", "/treasury/approval-rules", { token: acme.owner })).body,
            TWO_TIERS
          )
        })
      )

      it.effect(
        "a two-approval tier: each step is recorded and shown as progress, the same member twice is a 409, the quorum posts once",
        () =>
          withAppOnPorts(async (app, context) => {
            const acme = await setUpKeyedTeam(app, { funds: 100_000 })
            const admin = await member(context, acme, "admin")
            assert.strictEqual((await setRules(app, acme.owner, TWO_TIERS)).status, 200)
            const small = await createSpend(app, acme.key, spendBody(4_999))
            assert.strictEqual(small.body.status, "approved", "below the first tier nothing waits")
            const created = await createSpend(app, acme.key, spendBody(60_000))
            assert.strictEqual(created.body.status, "pending_approval", JSON.stringify(created.body))
            assert.deepStrictEqual(created.body.decision.reasons, [
              {
                code: "approval_threshold",
                message: "amount 60000 is at or above the approval threshold 5000",
                limit: 5000,
                requested: 60000,
                approvers: { required: 2, roles: ["admin", "owner"], requireOwner: false }
              }
            ])
            const approvalId = created.body.approval.id
            const queue = await app.call("GET", "/treasury/approvals?status=pending", { token: acme.owner })
            assert.deepStrictEqual(queue.body.data[0].approvals, {
              required: 2,
              roles: ["admin", "owner"],
              requireOwner: false,
              received: 0,
              decisions: []
            })

            const first = await decide(app, admin, approvalId, "approve", "looks right")
            assert.strictEqual(first.status, 200, JSON.stringify(first.body))
            assert.strictEqual(first.body.status, "pending")
            assert.deepStrictEqual(
              [first.body.subjectType, first.body.subject.status],
              ["spend_request", "pending_approval"]
            )
            assert.strictEqual(first.body.approvals.received, 1)
            assert.deepStrictEqual(
              first.body.approvals.decisions.map((d: { role: string; decision: string; note: string }) => [
                d.role,
                d.decision,
                d.note
              ]),
              [["admin", "approved", "looks right"]]
            )
            const twice = await decide(app, admin, approvalId, "approve")
            assert.strictEqual(twice.status, 409)
            assert.strictEqual(twice.body.error, "already_decided")
            const denyAfter = await decide(app, admin, approvalId, "deny")
            assert.strictEqual(denyAfter.status, 409, "a member who approved cannot deny")
            assert.deepStrictEqual(await balance(app, acme.key), { posted: 95_001, pending: 60_000, available: 35_001 })

            const second = await decide(app, acme.owner, approvalId, "approve")
            assert.strictEqual(second.status, 200)
            assert.strictEqual(second.body.status, "approved")
            assert.deepStrictEqual([second.body.subjectType, second.body.subject.status], ["spend_request", "approved"])
            assert.strictEqual(second.body.approvals.received, 2)
            assert.deepStrictEqual(await balance(app, acme.key), { posted: 35_001, pending: 0, available: 35_001 })
            const late = await decide(app, acme.owner, approvalId, "deny")
            assert.strictEqual(late.status, 409)
          })
      )

      it.effect("two admins approving a 2-quorum request at the same moment approve it once, with one movement", () =>
        withAppOnPorts(async (app, context) => {
          const acme = await setUpKeyedTeam(app, { funds: 100_000 })
          const admins = [await member(context, acme, "admin"), await member(context, acme, "admin")]
          const rules = { tiers: [{ minAmount: 1_000, approvals: 2, roles: ["admin"] }] }
          assert.strictEqual((await setRules(app, acme.owner, rules)).status, 200)
          for (let round = 0; round < 3; round++) {
            const created = await createSpend(app, acme.key, spendBody(5_000))
            const id = created.body.approval.id
            const answers = await Promise.all(admins.map((admin) => decide(app, admin, id, "approve")))
            assert.deepStrictEqual(
              answers.map((a) => a.status),
              [200, 200]
            )
            assert.deepStrictEqual(answers.map((a) => a.body.status).toSorted(), ["approved", "pending"])
            const spend = await app.call("GET", `/v1/spend-requests/${created.body.id}`, { token: acme.key })
            assert.strictEqual(spend.body.status, "approved")
            assert.strictEqual(spend.body.approval.approvals.received, 2)
          }
          assert.deepStrictEqual(await balance(app, acme.key), { posted: 85_000, pending: 0, available: 85_000 })
        })
      )

      it.effect("an approval racing a deny has one winner; the loser is a 409", () =>
        withAppOnPorts(async (app, context) => {
          const acme = await setUpKeyedTeam(app, { funds: 100_000, policy: { approvalThreshold: 1 } })
          const admin = await member(context, acme, "admin")
          for (let round = 0; round < 3; round++) {
            const created = await createSpend(app, acme.key, spendBody(1_000))
            const id = created.body.approval.id
            const [approved, denied] = await Promise.all([
              decide(app, admin, id, "approve"),
              decide(app, acme.owner, id, "deny")
            ])
            assert.deepStrictEqual([approved.status, denied.status].toSorted(), [200, 409])
            const spend = await app.call("GET", `/v1/spend-requests/${created.body.id}`, { token: acme.key })
            assert.strictEqual(spend.body.status, approved.status === 200 ? "approved" : "denied")
          }
        })
      )

      it.effect("the owner's slot and separation of duties: whom the quorum needs cannot be left out", () =>
        withAppOnPorts(async (app, context) => {
          const acme = await setUpKeyedTeam(app, { funds: 100_000 })
          const admins = [await member(context, acme, "admin"), await member(context, acme, "admin")]
          const memberOnly = await member(context, acme, "member")
          const rules = {
            tiers: [
              { minAmount: 1_000, approvals: 1, roles: ["admin", "owner"] },
              { minAmount: 5_000, approvals: 1, roles: ["admin", "owner"] },
              { minAmount: 20_000, approvals: 2, roles: ["admin", "owner"], requireOwner: true }
            ]
          }
          assert.strictEqual((await setRules(app, acme.owner, rules)).status, 200)
          // The owner created the key: alone, they approve the first tier but not above it.
          const firstTier = await createSpend(app, acme.key, spendBody(2_000))
          assert.strictEqual(
            (await decide(app, acme.owner, firstTier.body.approval.id, "approve")).body.status,
            "approved"
          )
          const secondTier = await createSpend(app, acme.key, spendBody(6_000))
          const alone = await decide(app, acme.owner, secondTier.body.approval.id, "approve")
          assert.strictEqual(alone.status, 403)
          assert.strictEqual(alone.body.error, "separation_of_duties")
          const notListed = await decide(app, memberOnly, secondTier.body.approval.id, "approve")
          assert.strictEqual(notListed.status, 403)
          const byAdmin = await decide(app, admins[0]!, secondTier.body.approval.id, "approve")
          assert.strictEqual(byAdmin.body.status, "approved")

          const top = await createSpend(app, acme.key, spendBody(30_000))
          const id = top.body.approval.id
          assert.strictEqual((await decide(app, admins[0]!, id, "approve")).body.status, "pending")
          const withoutOwner = await decide(app, admins[1]!, id, "approve")
          assert.strictEqual(withoutOwner.status, 403)
          assert.strictEqual(withoutOwner.body.error, "owner_required")
          const owner = await decide(app, acme.owner, id, "approve")
          assert.strictEqual(owner.body.status, "approved")
          assert.strictEqual(owner.body.approvals.received, 2)
        })
      )

      it.effect(
        "a frozen team's creates of every kind are denied with spending_frozen, its approvals wait, and all resumes on the lift",
        () =>
          withAppOnPorts(async (app, context) => {
            const acme = await setUpKeyedTeam(app, { funds: 100_000, policy: { approvalThreshold: 10_000 } })
            const globex = await setUpKeyedTeam(app)
            const address = (await app.call("GET", "/v1/transfers/receive-address", { token: globex.key })).body.address
            const memberOnly = await member(context, acme, "member")
            const pending = await createSpend(app, acme.key, spendBody(20_000))
            assert.strictEqual(pending.body.status, "pending_approval")

            const forbidden = await app.call("POST", "/treasury/spend-freeze", {
              token: memberOnly,
              body: { reason: "not mine to freeze" }
            })
            assert.strictEqual(forbidden.status, 403)
            const frozen = await app.call("POST", "/treasury/spend-freeze", {
              token: acme.owner,
              body: { reason: "suspected prompt injection" }
            })
            assert.strictEqual(frozen.status, 201, JSON.stringify(frozen.body))
            assert.strictEqual(frozen.body.scope, "team")
            assert.strictEqual(frozen.body.reason, "suspected prompt injection")
            assert.isNull(frozen.body.liftedAt)
            const again = await app.call("POST", "/treasury/spend-freeze", { token: acme.owner, body: { reason: "x" } })
            assert.strictEqual(again.status, 409)
            assert.strictEqual(again.body.error, "already_frozen")
            const listed = await app.call("GET", "/treasury/spend-freeze", { token: acme.owner })
            assert.deepStrictEqual(
              listed.body.data.map((f: { id: string }) => f.id),
              [frozen.body.id]
            )

            const creates = async () => [
              await createSpend(app, acme.key, spendBody(100)),
              await app.call("POST", "/v1/transfers", {
                token: acme.key,
                body: { to: { address }, amount: 100, currency: "USD" },
                headers: { "idempotency-key": crypto.randomUUID() }
              }),
              await app.call("POST", "/v1/checkout/intents", {
                token: acme.key,
                body: intentBody({ amount: 100 }),
                headers: { "idempotency-key": crypto.randomUUID() }
              })
            ]
            for (const created of await creates()) {
              assert.strictEqual(created.status, 201, JSON.stringify(created.body))
              assert.strictEqual(created.body.status, "denied")
              assert.deepStrictEqual(
                created.body.decision.reasons.map((r: { code: string }) => r.code),
                ["spending_frozen"]
              )
            }
            const refused = await decide(app, acme.owner, pending.body.approval.id, "approve")
            assert.strictEqual(refused.status, 409)
            assert.strictEqual(refused.body.error, "spending_frozen")
            const still = await app.call("GET", `/v1/spend-requests/${pending.body.id}`, { token: acme.key })
            assert.strictEqual(still.body.status, "pending_approval")
            assert.strictEqual(still.body.approval.approvals.received, 0, "a refused step is not recorded")

            const lifted = await app.call("DELETE", "/treasury/spend-freeze", { token: acme.owner })
            assert.strictEqual(lifted.status, 200)
            assert.isNotNull(lifted.body.liftedAt)
            assert.strictEqual(
              (await app.call("DELETE", "/treasury/spend-freeze", { token: acme.owner })).status,
              404,
              "nothing left to lift"
            )
            const approved = await decide(app, acme.owner, pending.body.approval.id, "approve")
            assert.strictEqual(approved.body.status, "approved")
            for (const created of await creates()) {
              assert.strictEqual(created.status, 201)
              assert.notStrictEqual(created.body.status, "denied", JSON.stringify(created.body))
            }
          })
      )

      it.effect("a key's freeze stops that key only; denying stays possible while frozen", () =>
        withAppOnPorts(async (app) => {
          const acme = await setUpKeyedTeam(app, { funds: 100_000, policy: { approvalThreshold: 10_000 } })
          const other = await app.call("POST", "/treasury/spending-keys", {
            token: acme.owner,
            body: { name: "other", mode: "test", policy: {} }
          })
          const keys = await app.call("GET", "/treasury/spending-keys", { token: acme.owner })
          const frozenKeyId = keys.body.data.find((k: { id: string }) => k.id !== other.body.id).id
          const pending = await createSpend(app, acme.key, spendBody(20_000))
          const unknown = await app.call("POST", "/treasury/spend-freeze", {
            token: acme.owner,
            body: { reason: "lost", spendingKeyId: crypto.randomUUID() }
          })
          assert.strictEqual(unknown.status, 404)
          const frozen = await app.call("POST", "/treasury/spend-freeze", {
            token: acme.owner,
            body: { reason: "laptop lost", spendingKeyId: frozenKeyId }
          })
          assert.strictEqual(frozen.status, 201)
          assert.strictEqual(frozen.body.scope, "spending_key")
          assert.strictEqual(frozen.body.mode, "test")
          assert.deepStrictEqual(
            (await createSpend(app, acme.key, spendBody(100))).body.decision.reasons.map(
              (r: { code: string }) => r.code
            ),
            ["spending_frozen"]
          )
          assert.strictEqual((await createSpend(app, other.body.secret, spendBody(100))).body.status, "approved")
          const denied = await decide(app, acme.owner, pending.body.approval.id, "deny")
          assert.strictEqual(denied.body.status, "denied")
          const lifted = await app.call("DELETE", `/treasury/spend-freeze?spendingKeyId=${frozenKeyId}`, {
            token: acme.owner
          })
          assert.strictEqual(lifted.status, 200)
          assert.strictEqual((await createSpend(app, acme.key, spendBody(100))).body.status, "approved")
        })
      )
    }
  )
