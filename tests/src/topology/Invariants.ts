/**
 * The checks of the failover suite: after the load stopped, the database (read directly, on the leader) is held to
 * every answer a client was given and to the ledger's own rules; and the answers themselves to the statuses a client
 * may see during a fault. Plain TypeScript (no vitest): each check answers whether it holds and the counts behind it.
 */
import { Effect } from "effect"
import { ledgerViolations, withSql } from "../faults/SpendLoad.ts"
import { type Call, labelOf, type Op, type Prepared, type WorkloadReport } from "./Workload.ts"

/** One invariant: whether it holds, and the counts (and the first problems) behind the verdict. */
export interface Check {
  readonly name: string
  readonly ok: boolean
  readonly detail: string
}

/** The ledger codes of the load's movements. */
const CODES = ["spend_request", "transfer", "card_authorization"]

interface Facts {
  readonly spends: ReadonlyArray<{
    readonly id: string
    readonly purpose: string
    readonly status: string
    readonly amount: string
    readonly keyId: string
    readonly day: string
  }>
  readonly transfers: ReadonlyArray<{
    readonly id: string
    readonly memo: string | null
    readonly status: string
    readonly recipientTeamId: string
  }>
  readonly authorizations: ReadonlyArray<{
    readonly token: string
    readonly cardToken: string
    readonly status: string
    readonly declineReason: string | null
    readonly holdTransactionId: string | null
  }>
  readonly intents: ReadonlyArray<{ readonly id: string; readonly status: string; readonly authorizedAmount: string }>
  readonly movements: ReadonlyArray<{
    readonly id: string
    readonly teamId: string
    readonly kind: string
    readonly code: string
    readonly reference: string
    readonly pendingId: string | null
  }>
  readonly idempotency: ReadonlyArray<{ readonly key: string; readonly n: string }>
  readonly ledger: ReadonlyArray<string>
  readonly currencies: ReadonlyArray<{ readonly currency: string; readonly total: string }>
}

const readFacts = (databaseUrl: string, prepared: Prepared) => {
  const spenderTeams = prepared.spenders.map((s) => s.teamId)
  const senderTeams = prepared.transferPairs.map((p) => p.sender.teamId)
  const teams = [
    ...spenderTeams,
    ...prepared.transferPairs.flatMap((p) => [p.sender.teamId, p.recipient.teamId]),
    prepared.cardAgent.teamId
  ]
  const cardTokens = prepared.cards.map((c) => c.cardToken)
  return withSql(databaseUrl, (sql) =>
    Effect.all({
      spends: sql<Facts["spends"][number]>`
        SELECT id::text, purpose, status, amount::text, spending_key_id::text AS key_id,
               date_trunc('day', created_at)::text AS day
        FROM spend_requests WHERE ${sql.in("team_id", spenderTeams)}`,
      transfers: sql<Facts["transfers"][number]>`
        SELECT id::text, memo, status, recipient_team_id::text
        FROM transfers WHERE ${sql.in("sender_team_id", senderTeams)}`,
      authorizations:
        cardTokens.length === 0
          ? Effect.succeed([])
          : sql<Facts["authorizations"][number]>`
        SELECT token, card_token, status, decline_reason, hold_transaction_id::text
        FROM card_authorizations WHERE ${sql.in("card_token", cardTokens)}`,
      intents: sql<Facts["intents"][number]>`
        SELECT id::text, status, authorized_amount::text FROM checkout_intents
        WHERE team_id = ${prepared.cardAgent.teamId}`,
      movements: sql<Facts["movements"][number]>`
        SELECT t.id::text, t.team_id::text, t.kind, t.code, t.reference, t.pending_id::text
        FROM ledger_transactions t WHERE ${sql.in("t.team_id", teams)} AND ${sql.in("t.code", CODES)}`,
      idempotency: sql<Facts["idempotency"][number]>`
        SELECT key, COUNT(*)::text AS n FROM idempotency_responses WHERE key LIKE 'topology-%' GROUP BY key`,
      ledger: ledgerViolations(sql),
      currencies: sql<Facts["currencies"][number]>`
        SELECT currency, SUM(amount)::text AS total FROM ledger_entries GROUP BY currency HAVING SUM(amount) <> 0`
    })
  )
}

const groupBy = <A>(items: ReadonlyArray<A>, keyOf: (a: A) => string) => {
  const groups = new Map<string, Array<A>>()
  for (const item of items) {
    const key = keyOf(item)
    groups.set(key, [...(groups.get(key) ?? []), item])
  }
  return groups
}

/** A check from its problems: ok when there are none; the detail leads with `counts` and names the first five. */
const check = (name: string, counts: string, problems: ReadonlyArray<string>): Check => ({
  name,
  ok: problems.length === 0,
  detail: `${counts}, ${problems.length} problems${problems.length === 0 ? "" : `: ${problems.slice(0, 5).join("; ")}`}`
})

const firstCall = (op: Op): Call | undefined => op.calls[0]
const answerOf = (op: Op) => firstCall(op)?.answer
const resolutionOf = (op: Op): Call | undefined => op.calls[1]

/** Every movement of a cause: its posted and pending transactions, and each hold's resolution, as sorted kinds. */
const movementsOf = (facts: Facts) => {
  const byCause = groupBy(
    facts.movements.filter((m) => m.kind === "posted" || m.kind === "pending"),
    (m) => `${m.code}/${m.reference}`
  )
  const resolutions = groupBy(
    facts.movements.filter((m) => m.pendingId !== null),
    (m) => m.pendingId ?? ""
  )
  return (code: string, reference: string) => {
    const own = byCause.get(`${code}/${reference}`) ?? []
    const resolved = own.flatMap((m) => resolutions.get(m.id) ?? [])
    return {
      own,
      resolved,
      kinds: [...own, ...resolved]
        .map((m) => m.kind)
        .toSorted()
        .join(",")
    }
  }
}

/** The movements a stored row of each kind and status must have, as sorted kinds. */
const EXPECTED_MOVEMENTS: Record<string, Record<string, string>> = {
  spend_request: {
    approved: "posted",
    pending_approval: "pending",
    denied: "",
    expired: "pending,void_pending",
    canceled: "pending,void_pending"
  },
  transfer: {
    pending_approval: "pending",
    pending_acceptance: "pending",
    completed: "pending,post_pending,posted",
    declined: "pending,void_pending",
    canceled: "pending,void_pending",
    expired: "pending,void_pending",
    denied: ""
  },
  // Reversed: an approval given up (the issuer's reversal, or one answered unavailable whose commit went through).
  card_authorization: { approved: "pending", declined: "", reversed: "pending,void_pending" }
}

const storedOnce = (facts: Facts, report: WorkloadReport): Check => {
  const spendsByPurpose = groupBy(facts.spends, (r) => r.purpose)
  const transfersByMemo = groupBy(facts.transfers, (t) => t.memo ?? "")
  const authorizations = new Map(facts.authorizations.map((a) => [a.token, a]))
  const keyRows = new Map(facts.idempotency.map((r) => [r.key, Number(r.n)]))
  const problems: Array<string> = []
  const counts = { acknowledged: 0, unanswered: 0 }
  const keyed = (call: Call) => {
    const n = keyRows.get(call.idempotencyKey) ?? 0
    if (call.answer !== undefined ? n !== 1 : n > 1) problems.push(`key ${call.idempotencyKey}: ${n} idempotency rows`)
  }
  for (const op of report.ops) {
    const answer = answerOf(op)
    if (answer === undefined) counts.unanswered++
    else counts.acknowledged++
    if (op.kind === "authorization") {
      const row = authorizations.get(op.key)
      if (answer === undefined) continue
      if (answer.decline_reason === "card_issuing_unavailable") {
        // The issuer was told DECLINED: nothing may hold for it. A decision whose commit went through anyway is
        // stored declined, or reversed once the service saw its approval stand.
        if (row !== undefined && row.status !== "declined" && row.status !== "reversed")
          problems.push(`authorization ${op.key}: answered unavailable but stored ${row.status}`)
        continue
      }
      const status = answer.approve_response === "APPROVED" ? "approved" : "declined"
      if (row === undefined) problems.push(`authorization ${op.key}: answered ${status}, not stored`)
      else if (row.status !== status || (row.declineReason ?? undefined) !== (answer.decline_reason ?? undefined))
        problems.push(
          `authorization ${op.key}: answered ${status} ${String(answer.decline_reason)}, stored ${row.status}`
        )
      continue
    }
    const rows = (op.kind === "spend" ? spendsByPurpose : transfersByMemo).get(labelOf(op.key)) ?? []
    for (const call of op.calls) keyed(call)
    if (answer === undefined) {
      if (rows.length > 1) problems.push(`${op.kind} ${op.key}: unanswered, ${rows.length} rows`)
      continue
    }
    if (rows.length !== 1) problems.push(`${op.kind} ${op.key}: answered ${String(answer.id)}, ${rows.length} rows`)
    else if (rows[0]?.id !== answer.id)
      problems.push(`${op.kind} ${op.key}: answered ${String(answer.id)}, stored ${rows[0]?.id}`)
  }
  const labels = new Set(report.ops.map((op) => labelOf(op.key)))
  const strays = [...facts.spends.map((r) => r.purpose), ...facts.transfers.map((t) => t.memo ?? "")].filter(
    (label) => !labels.has(label)
  )
  for (const label of strays) problems.push(`a row no operation asked for: ${label}`)
  return check(
    "every acknowledged operation is stored exactly once",
    `${report.ops.length} operations, ${counts.acknowledged} acknowledged, ${counts.unanswered} unanswered; ` +
      `${facts.spends.length} spend requests, ${facts.transfers.length} transfers, ${facts.authorizations.length} authorizations stored`,
    problems
  )
}

const movedOnce = (facts: Facts): Check => {
  const movements = movementsOf(facts)
  const problems: Array<string> = []
  const causes = [
    ...facts.spends.map((r) => ({ code: "spend_request", reference: r.id, status: r.status })),
    ...facts.transfers.map((t) => ({ code: "transfer", reference: t.id, status: t.status })),
    ...facts.authorizations.map((a) => ({ code: "card_authorization", reference: a.token, status: a.status }))
  ]
  for (const { code, reference, status } of causes) {
    const expected = EXPECTED_MOVEMENTS[code]?.[status]
    const actual = movements(code, reference).kinds
    if (expected !== actual)
      problems.push(`${code} ${reference} (${status}): moved [${actual}], expected [${expected}]`)
  }
  const known = new Set(causes.map((c) => `${c.code}/${c.reference}`))
  const strays = facts.movements.filter(
    (m) => (m.kind === "posted" || m.kind === "pending") && !known.has(`${m.code}/${m.reference}`)
  )
  for (const m of strays) problems.push(`a ${m.kind} ${m.code} movement of no stored operation: ${m.reference}`)
  return check(
    "no operation moved money more than once",
    `${facts.movements.length} movements over ${causes.length} stored operations`,
    problems
  )
}

const ledgerSound = (facts: Facts): Check =>
  check(
    "the ledger sums to zero per currency and matches the balances",
    `${facts.ledger.length} broken ledger rules, ${facts.currencies.length} currencies not summing to zero`,
    [...facts.ledger, ...facts.currencies.map((c) => `${c.currency} sums to ${c.total}`)]
  )

const withinBudgets = (facts: Facts, prepared: Prepared): Check => {
  const policy = prepared.options.spendPolicy
  const problems: Array<string> = []
  const counted = facts.spends.filter((r) => r.status === "approved" || r.status === "pending_approval")
  let periods = 0
  for (const [period, rows] of groupBy(counted, (r) => `${r.keyId} ${r.day}`)) {
    periods++
    const spent = rows.reduce((sum, r) => sum + Number(r.amount), 0)
    if (spent > policy.dailyBudget) problems.push(`key ${period}: ${spent} over the daily budget ${policy.dailyBudget}`)
  }
  for (const r of counted) {
    const amount = Number(r.amount)
    if (amount > policy.perRequestLimit) problems.push(`${r.id}: ${r.status} ${amount} over the per-request limit`)
    if (r.status === "approved" && amount >= policy.approvalThreshold)
      problems.push(`${r.id}: approved ${amount} at or over the approval threshold`)
    if (r.status === "pending_approval" && amount < policy.approvalThreshold)
      problems.push(`${r.id}: pending ${amount} under the approval threshold`)
  }
  const denied = facts.spends.filter((r) => r.status === "denied").length
  return check(
    "no budget exceeded",
    `${periods} key-days, ${counted.length} approved or pending, ${denied} denied, daily budget ${policy.dailyBudget}`,
    problems
  )
}

const transfersSettled = (facts: Facts, report: WorkloadReport): Check => {
  const movements = movementsOf(facts)
  const byId = new Map(facts.transfers.map((t) => [t.id, t]))
  const problems: Array<string> = []
  for (const t of facts.transfers) {
    const { own } = movements("transfer", t.id)
    const credited = own.filter((m) => m.kind === "posted" && m.teamId === t.recipientTeamId).length
    if (t.status === "completed" && credited !== 1)
      problems.push(`transfer ${t.id} completed, credited ${credited} times`)
    if (t.status !== "completed" && credited !== 0) problems.push(`transfer ${t.id} ${t.status} but credited`)
    if (t.status === "declined" && movements("transfer", t.id).kinds !== "pending,void_pending")
      problems.push(`transfer ${t.id} declined but its hold is ${movements("transfer", t.id).kinds || "missing"}`)
  }
  let resolved = 0
  for (const op of report.ops.filter((o) => o.kind === "transfer")) {
    const answer = resolutionOf(op)?.answer
    if (answer === undefined) continue
    resolved++
    const stored = byId.get(String(answer.id))?.status
    if (stored !== answer.status)
      problems.push(`transfer ${String(answer.id)}: answered ${String(answer.status)}, stored ${stored}`)
  }
  const statuses = [...groupBy(facts.transfers, (t) => t.status)].map(([s, ts]) => `${ts.length} ${s}`).join(", ")
  return check(
    "accepted transfers completed and credited once, declined ones hold nothing",
    `${facts.transfers.length} transfers (${statuses || "none"}), ${resolved} acceptances or declines acknowledged`,
    problems
  )
}

const authorizationsHeld = (facts: Facts, prepared: Prepared): Check => {
  const movements = movementsOf(facts)
  const intents = new Map(facts.intents.map((i) => [i.id, i]))
  const problems: Array<string> = []
  const approved = facts.authorizations.filter((a) => a.status === "approved")
  for (const a of approved) {
    const holds = movements("card_authorization", a.token).own
    if (holds.length !== 1 || holds[0]?.kind !== "pending" || holds[0].id !== a.holdTransactionId)
      problems.push(`authorization ${a.token}: approved with ${holds.length} holds`)
  }
  const approvedByCard = groupBy(approved, (a) => a.cardToken)
  for (const card of prepared.cards) {
    const n = approvedByCard.get(card.cardToken)?.length ?? 0
    const intent = intents.get(card.intentId)
    if (n > 1) problems.push(`card ${card.cardId}: ${n} approved authorizations`)
    const expected = n === 1 ? ["authorized", String(card.amount)] : ["approved", "0"]
    if (intent?.status !== expected[0] || intent?.authorizedAmount !== expected[1])
      problems.push(`intent ${card.intentId}: ${intent?.status} ${intent?.authorizedAmount} with ${n} approved`)
  }
  return check(
    "approved card authorizations hold exactly once",
    `${facts.authorizations.length} authorizations stored, ${approved.length} approved over ${prepared.cards.length} cards`,
    problems
  )
}

/** Whether a client may see an answer during a fault: 2xx, no answer, 429 or 503 with Retry-After, key in use. */
const acceptable = (a: {
  readonly status: number
  readonly retryAfter: string | null
  readonly error: string | null
}) =>
  (a.status >= 200 && a.status < 300) ||
  a.status === 0 ||
  ((a.status === 503 || a.status === 429) && a.retryAfter !== null) ||
  (a.status === 409 && a.error === "idempotency_key_in_use" && a.retryAfter !== null)

const answersSeen = (report: WorkloadReport): Check => {
  const attempts = report.ops.flatMap((op) => op.calls.flatMap((call) => call.attempts.map((a) => ({ op, call, a }))))
  const byStatus = groupBy(attempts, ({ a }) =>
    a.status === 503 || a.status === 429
      ? `${a.status}${a.retryAfter === null ? " without Retry-After" : ""}`
      : String(a.status)
  )
  const counts = [...byStatus]
    .toSorted(([a], [b]) => a.localeCompare(b))
    .map(([status, list]) => `${status}: ${list.length}`)
    .join(", ")
  const problems = attempts
    .filter(({ a }) => !acceptable(a))
    .map(({ op, call, a }) => `${call.name} ${op.key} answered ${a.status} ${a.error ?? ""}`.trim())
  return check(
    "clients saw only 2xx, no answer, or 429/503 with Retry-After",
    `${attempts.length} attempts (${counts})`,
    problems
  )
}

const allAnswered = (report: WorkloadReport): Check => {
  const unanswered = report.ops.filter((op) => op.calls.some((call) => call.answer === undefined))
  return check(
    "every operation was answered within its deadline",
    `${report.ops.length} operations, ${unanswered.length} without a 2xx answer`,
    unanswered.map(
      (op) =>
        `${op.kind} ${op.key}: last ${op.calls.at(-1)?.attempts.at(-1)?.status} after ${op.finishedAt - op.startedAt} ms`
    )
  )
}

/**
 * Every invariant of the load's run, read from the database at `databaseUrl` (the leader, no pooler) once the load
 * stopped: operations stored once, money moved once, the ledger sound, budgets kept, transfers and authorizations
 * settled as answered, and the statuses clients saw.
 */
export const checkInvariants = async (
  databaseUrl: string,
  prepared: Prepared,
  report: WorkloadReport
): Promise<ReadonlyArray<Check>> => {
  const facts = await readFacts(databaseUrl, prepared)
  return [
    storedOnce(facts, report),
    movedOnce(facts),
    ledgerSound(facts),
    withinBudgets(facts, prepared),
    transfersSettled(facts, report),
    authorizationsHeld(facts, prepared),
    answersSeen(report),
    allAnswered(report)
  ]
}
