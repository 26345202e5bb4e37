import { assert, layer } from "@effect/vitest"
import {
  AgentKeys,
  AuditLog,
  type AuditVerification,
  auditEntryView,
  effectivePolicy,
  evaluateSpend,
  MAX_POLICY_BYTES,
  NO_USAGE,
  type PolicyVersion,
  pageRequest,
  SpendRequests,
  type TeamId
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { domainOver, fundedAgent, type Ports, spend } from "../spend/SpendSetup.ts"

/** Rewrites the stored content of a team's entry `seq` behind the log's back; `rehash` also recomputes its hash. */
export type Tamper<R> = (
  teamId: TeamId,
  seq: number,
  content: string,
  rehash: boolean
) => Effect.Effect<void, unknown, R>

const everything = (teamId: TeamId) =>
  Effect.gen(function* () {
    const audit = yield* AuditLog
    const entries = []
    let page = yield* pageRequest(undefined, 100)
    for (;;) {
      const rows = yield* audit.list(teamId, page)
      entries.push(...rows.slice(0, page.limit))
      const last = rows[page.limit - 1]
      if (rows.length <= page.limit || last === undefined) break
      page = { after: Option.some({ createdAt: "1970-01-01T00:00:00.000Z", id: last.id }), limit: page.limit }
    }
    return entries
  })

const versionOf = (versions: ReadonlyArray<PolicyVersion>, subject: PolicyVersion["subject"], n: number | null) =>
  n === null ? undefined : versions.find((v) => v.subject === subject && v.version === n)

const hugePolicy = () => ({
  allowedMerchants: Array.from({ length: 100 }, (_, i) => `${"m".repeat(190)}${String(i).padStart(4, "0")}`),
  blockedMerchants: Array.from({ length: 100 }, (_, i) => `${"b".repeat(190)}${String(i).padStart(4, "0")}`),
  allowedCategories: Array.from({ length: 2_000 }, (_, i) => `category-${i}`)
})

/** How every adapter set keeps policy versions and the per-team audit chain. */
export const auditContract = <E, T>(name: string, ports: Layer.Layer<Ports | T, E>, tamper: Tamper<T>) => {
  const services = Layer.merge(AuditLog.layer, domainOver(ports)).pipe(Layer.provideMerge(ports))
  layer(services, { timeout: "120 seconds" })(`Policy versions and audit log (${name})`, (it) => {
    it.effect("a key's policy is version 1 at issue and one more at each change, with who and when", () =>
      Effect.gen(function* () {
        const keys = yield* AgentKeys
        const { team, key, approver } = yield* fundedAgent({ funds: 0, policy: { perRequestLimit: 100 } })
        assert.strictEqual(key.policyVersion, 1)
        const updated = yield* keys.updatePolicy(team.id, key.id, { perRequestLimit: 200 }, approver.userId)
        assert.strictEqual(updated.policyVersion, 2)
        const team1 = yield* keys.setTeamPolicy(team.id, { dailyBudget: 1_000 }, approver.userId)
        const team2 = yield* keys.setTeamPolicy(team.id, { dailyBudget: 2_000 }, null)
        assert.deepStrictEqual([team1.version, team2.version], [1, 2])
        const versions = yield* keys.policyVersions(team.id, key.id)
        assert.deepStrictEqual(versions.map((v) => [v.subject, v.version]).toSorted(), [
          ["spending_key", 1],
          ["spending_key", 2],
          ["team", 1],
          ["team", 2]
        ])
        assert.deepStrictEqual(versionOf(versions, "spending_key", 1)?.policy, { perRequestLimit: 100 })
        assert.deepStrictEqual(versionOf(versions, "spending_key", 2)?.policy, { perRequestLimit: 200 })
        assert.strictEqual(versionOf(versions, "spending_key", 2)?.createdBy, approver.userId)
        assert.strictEqual(versionOf(versions, "team", 1)?.createdBy, approver.userId)
        assert.isNull(versionOf(versions, "team", 2)?.createdBy)
        assert.deepStrictEqual(versionOf(versions, "team", 2)?.policy, { dailyBudget: 2_000 })
        assert.deepStrictEqual(yield* keys.teamPolicy(team.id), { dailyBudget: 2_000 })
      })
    )

    it.effect("policy versions of a key unknown in the team are KeyNotFound; another team's versions never show", () =>
      Effect.gen(function* () {
        const keys = yield* AgentKeys
        const acme = yield* fundedAgent({ funds: 0 })
        const globex = yield* fundedAgent({ funds: 0 })
        yield* keys.setTeamPolicy(globex.team.id, { dailyBudget: 1 }, null)
        const missing = yield* Effect.flip(keys.policyVersions(acme.team.id, globex.key.id))
        assert.strictEqual(missing._tag, "KeyNotFound")
        const mine = yield* keys.policyVersions(acme.team.id, acme.key.id)
        assert.deepStrictEqual(
          mine.map((v) => [v.subject, v.spendingKeyId]),
          [["spending_key", acme.key.id]]
        )
      })
    )

    it.effect("20 concurrent changes of one key's policy get versions 2 to 21, each once; the key ends on 21", () =>
      Effect.gen(function* () {
        const keys = yield* AgentKeys
        const { team, key } = yield* fundedAgent({ funds: 0 })
        const updated = yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => i),
          (i) => keys.updatePolicy(team.id, key.id, { perRequestLimit: 1_000 + i }, null),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(
          updated.map((k) => k.policyVersion).toSorted((a, b) => a - b),
          Array.from({ length: 20 }, (_, i) => i + 2)
        )
        const versions = (yield* keys.policyVersions(team.id, key.id)).filter((v) => v.subject === "spending_key")
        assert.deepStrictEqual(
          versions.map((v) => v.version).toSorted((a, b) => a - b),
          Array.from({ length: 21 }, (_, i) => i + 1)
        )
        const last = updated.find((k) => k.policyVersion === 21)
        const listed = (yield* keys.listSpendingKeys(team.id)).find((k) => k.id === key.id)
        assert.strictEqual(listed?.policyVersion, 21)
        assert.deepStrictEqual(listed?.policy, last?.policy)
        assert.deepStrictEqual(versionOf(versions, "spending_key", 21)?.policy, last?.policy)
      })
    )

    it.effect("a decision records its versions; one made before a change is still explained by its version", () =>
      Effect.gen(function* () {
        const keys = yield* AgentKeys
        const { team, key, secret, agent, approver } = yield* fundedAgent({
          funds: 100_000,
          policy: { approvalThreshold: 5_000 }
        })
        const before = yield* spend(agent, 6_000)
        assert.strictEqual(before.status, "pending_approval")
        assert.deepStrictEqual(before.decision.policyVersions, { spendingKey: 1, team: null })

        yield* keys.updatePolicy(team.id, key.id, { approvalThreshold: 50_000 }, approver.userId)
        yield* keys.setTeamPolicy(team.id, { perRequestLimit: 7_000 }, approver.userId)
        const refreshed = Option.getOrThrow(yield* keys.authenticate(secret))
        const after = yield* spend(refreshed, 6_000)
        assert.strictEqual(after.status, "approved")
        assert.deepStrictEqual(after.decision.policyVersions, { spendingKey: 2, team: 1 })
        const denied = yield* spend(refreshed, 8_000)
        assert.strictEqual(denied.status, "denied")
        assert.deepStrictEqual(denied.decision.policyVersions, { spendingKey: 2, team: 1 })

        const stored = yield* SpendRequests.use((s) => s.get(team.id, "test", before.id))
        const versions = yield* keys.policyVersions(team.id, key.id)
        const refs = stored.decision.policyVersions
        assert.isDefined(refs)
        const own = versionOf(versions, "spending_key", refs?.spendingKey ?? null)
        const defaults = versionOf(versions, "team", refs?.team ?? null)
        const teamDefaults = defaults?.policy ?? {}
        assert.deepStrictEqual(own?.policy, { approvalThreshold: 5_000 })
        assert.isUndefined(defaults)
        const replayed = evaluateSpend({
          policy: effectivePolicy(own?.policy ?? {}, teamDefaults),
          amount: stored.amount,
          merchant: { name: stored.merchant.name, category: stored.merchant.category ?? undefined },
          now: Date.parse(stored.createdAt),
          spent: NO_USAGE,
          categorySpent: NO_USAGE,
          recentRequests: [],
          requestsToday: 0,
          available: 100_000
        })
        assert.strictEqual(replayed.outcome, stored.decision.outcome)
        assert.deepStrictEqual(
          replayed.reasons.map((r) => r.code),
          stored.decision.reasons.map((r) => r.code)
        )
      })
    )

    it.effect("a policy over 64 KiB is refused whole: no change, no version, no audit entry", () =>
      Effect.gen(function* () {
        const keys = yield* AgentKeys
        const audit = yield* AuditLog
        const { team, key, approver } = yield* fundedAgent({ funds: 0, policy: { perRequestLimit: 1 } })
        const policy = hugePolicy()
        assert.isAbove(new TextEncoder().encode(JSON.stringify(policy)).length, MAX_POLICY_BYTES)
        const before = yield* audit.verify(team.id)
        const onKey = yield* Effect.flip(keys.updatePolicy(team.id, key.id, policy, approver.userId))
        assert.strictEqual(onKey._tag, "PolicyTooLarge")
        const onTeam = yield* Effect.flip(keys.setTeamPolicy(team.id, policy, approver.userId))
        assert.strictEqual(onTeam._tag, "PolicyTooLarge")
        const onIssue = yield* Effect.flip(
          keys.issueSpendingKey({ teamId: team.id, createdBy: approver.userId, name: "big", mode: "test", policy })
        )
        assert.strictEqual(onIssue._tag, "PolicyTooLarge")
        const listed = yield* keys.listSpendingKeys(team.id)
        assert.deepStrictEqual(
          listed.map((k) => [k.id, k.policyVersion, k.policy]),
          [[key.id, 1, { perRequestLimit: 1 }]]
        )
        assert.deepStrictEqual(yield* keys.teamPolicy(team.id), {})
        assert.lengthOf(yield* keys.policyVersions(team.id, key.id), 1)
        assert.deepStrictEqual((yield* audit.verify(team.id)).head, before.head)
      })
    )

    it.effect("key changes, policy versions, decisions and approvals are audited in one chain that verifies", () =>
      Effect.gen(function* () {
        const keys = yield* AgentKeys
        const audit = yield* AuditLog
        const { team, key, agent, approver } = yield* fundedAgent({
          funds: 100_000,
          policy: { approvalThreshold: 5_000 }
        })
        yield* spend(agent, 1_000)
        const pending = yield* spend(agent, 6_000)
        yield* SpendRequests.use((s) => s.approve(approver, pending.approval?.id ?? "", "ok"))
        yield* keys.setTeamPolicy(team.id, { dailyBudget: 90_000 }, approver.userId)
        yield* keys.revoke(team.id, "spending_key", key.id, approver.userId)

        const entries = yield* everything(team.id)
        const views = entries.map(auditEntryView)
        assert.deepStrictEqual(
          views.map((v) => v.seq),
          Array.from({ length: views.length }, (_, i) => views.length - i)
        )
        const types = views.map((v) => v.type).toReversed()
        for (const type of [
          "spending_key.created",
          "policy_version.created",
          "spend_request.created",
          "spend_request.approved",
          "spend_request.approval_required",
          "spending_key.revoked"
        ]) {
          assert.include(types, type)
        }
        assert.isBelow(types.indexOf("spending_key.created"), types.indexOf("spend_request.created"))
        assert.strictEqual(types.at(-1), "spending_key.revoked")
        const approved = views.find(
          (v) => v.type === "spend_request.approved" && (v.data as { id?: string }).id === pending.id
        )
        assert.isDefined(approved)
        const approval = (approved?.data as { approval?: { decidedBy?: string; note?: string } } | undefined)?.approval
        assert.strictEqual(approval?.decidedBy, approver.userId)
        assert.strictEqual(approval?.note, "ok")
        const teamVersion = views.find((v) => v.type === "policy_version.created" && v.data.subject === "team")
        assert.deepStrictEqual(teamVersion?.data.policy, { dailyBudget: 90_000 })
        assert.isNull(teamVersion?.mode)
        const oldestFirst = entries.toReversed()
        oldestFirst.forEach((entry, i) => {
          assert.strictEqual(entry.prevHash, i === 0 ? "0".repeat(64) : oldestFirst[i - 1]?.hash)
        })
        const verified: AuditVerification = yield* audit.verify(team.id)
        assert.deepStrictEqual(verified, {
          object: "audit_verification",
          valid: true,
          checked: entries.length,
          head: { seq: entries.length, hash: entries[0]?.hash ?? "" },
          firstBroken: null
        })
      })
    )

    it.effect("each team has its own chain from seq 1; an empty log verifies", () =>
      Effect.gen(function* () {
        const audit = yield* AuditLog
        const acme = yield* fundedAgent({ funds: 10_000 })
        const globex = yield* fundedAgent({ funds: 10_000 })
        yield* spend(acme.agent, 100)
        yield* spend(globex.agent, 100)
        for (const { team } of [acme, globex]) {
          const entries = yield* everything(team.id)
          assert.strictEqual(entries.at(-1)?.seq, 1)
          assert.isTrue(entries.every((e) => e.teamId === team.id))
          assert.isTrue((yield* audit.verify(team.id)).valid)
        }
        const nobody = crypto.randomUUID() as TeamId
        assert.deepStrictEqual(yield* audit.verify(nobody), {
          object: "audit_verification",
          valid: true,
          checked: 0,
          head: null,
          firstBroken: null
        })
      })
    )

    it.effect("60 concurrent decisions of one team append a contiguous chain that verifies", () =>
      Effect.gen(function* () {
        const audit = yield* AuditLog
        const { team, agent } = yield* fundedAgent({ funds: 30_000 })
        yield* Effect.forEach(Array.from({ length: 60 }), () => spend(agent, 1_000), { concurrency: "unbounded" })
        const entries = yield* everything(team.id)
        const decisions = entries.map(auditEntryView).filter((v) => v.type === "spend_request.created")
        assert.lengthOf(decisions, 60)
        assert.deepStrictEqual(
          entries.map((e) => e.seq),
          Array.from({ length: entries.length }, (_, i) => entries.length - i)
        )
        const verified = yield* audit.verify(team.id)
        assert.isTrue(verified.valid)
        assert.strictEqual(verified.checked, entries.length)
      })
    )

    it.effect("the list pages newest first through its cursor, every entry once", () =>
      Effect.gen(function* () {
        const audit = yield* AuditLog
        const { team, agent } = yield* fundedAgent({ funds: 10_000 })
        yield* Effect.forEach(Array.from({ length: 4 }), () => spend(agent, 100))
        const all = yield* everything(team.id)
        const seen: Array<number> = []
        let page = yield* pageRequest(undefined, 3)
        for (;;) {
          const rows = yield* audit.list(team.id, page)
          seen.push(...rows.slice(0, 3).map((e) => e.seq))
          const last = rows[2]
          if (rows.length <= 3 || last === undefined) break
          page = { after: Option.some({ createdAt: "1970-01-01T00:00:00.000Z", id: last.id }), limit: 3 }
        }
        assert.deepStrictEqual(
          seen,
          all.map((e) => e.seq)
        )
        assert.strictEqual(new Set(seen).size, all.length)
      })
    )

    it.effect("an entry changed behind the log's back is named by verify; a rehashed change breaks at the next", () =>
      Effect.gen(function* () {
        const audit = yield* AuditLog
        const { team, agent } = yield* fundedAgent({ funds: 10_000 })
        yield* Effect.forEach(Array.from({ length: 3 }), () => spend(agent, 100))
        const oldestFirst = (yield* everything(team.id)).toReversed()
        const target = oldestFirst[3]
        assert.isDefined(target)
        if (target === undefined) return
        const forged = target.content.replace('"amount":100', '"amount":1').replace('"amount": 100', '"amount": 1')
        assert.notStrictEqual(forged, target.content)

        yield* tamper(team.id, target.seq, forged, false)
        const changed = yield* audit.verify(team.id)
        assert.isFalse(changed.valid)
        assert.deepStrictEqual(changed.firstBroken, { seq: target.seq, id: target.id, reason: "hash_mismatch" })
        assert.strictEqual(changed.checked, target.seq)

        yield* tamper(team.id, target.seq, forged, true)
        const rehashed = yield* audit.verify(team.id)
        const next = oldestFirst[4]
        assert.deepStrictEqual(rehashed.firstBroken, {
          seq: target.seq + 1,
          id: next?.id ?? null,
          reason: "prev_hash_mismatch"
        })

        yield* tamper(team.id, target.seq, target.content, true)
        const restored = yield* audit.verify(team.id)
        assert.isTrue(restored.valid)
      })
    )
  })
}
