import { assert } from "@effect/vitest"
import {
  type CategoriesRepo,
  Ledger,
  type LedgerRepo,
  type LedgerTransaction,
  pageRequest,
  type ReceiveHandlesRepo,
  type TeamId,
  TeamOpening,
  Teams,
  type TeamsRepo,
  type Transactor,
  type UserId,
  Users,
  type UsersRepo
} from "@svc/domain"
import { Effect, Layer } from "effect"

/** The ports every ledger contract runs on. */
export type LedgerPorts<R = never> =
  | Transactor
  | UsersRepo
  | TeamsRepo
  | ReceiveHandlesRepo
  | CategoriesRepo
  | LedgerRepo
  | R

/** The domain services over whichever ports the caller provides. */
export const domainOver = <E, R>(ports: Layer.Layer<R, E>) =>
  Layer.mergeAll(Users.layer, Teams.layer, TeamOpening.layer).pipe(
    Layer.provideMerge(Ledger.layer),
    Layer.provideMerge(ports)
  )

/** A fresh team with its owner; returns the team and its live and test spend accounts. */
export const newTeam = Effect.gen(function* () {
  const opening = yield* TeamOpening
  const ledger = yield* Ledger
  const owner = { id: crypto.randomUUID() as UserId, email: "owner@example.com", fullName: "Owner" }
  const team = yield* opening.open(owner, { name: "Acme" })
  const spend = yield* ledger.accounts(team.id, { kind: "spend" })
  const live = spend.find((a) => a.mode === "live")!
  const test = spend.find((a) => a.mode === "test")!
  return { team, owner, live, test }
})

/** A new team whose test spend account holds `funds`, and a movement builder from it to the team's settlement account. */
export const fundedTestTeam = (funds: number) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const created = yield* newTeam
    const settlement = yield* ledger.settlementAccount(created.team.id, "test", "USD")
    if (funds > 0) {
      yield* ledger.deposit({
        teamId: created.team.id,
        mode: "test",
        accountId: created.test.id,
        amount: funds,
        currency: "USD",
        reference: "funding"
      })
    }
    const spend = (reference: string, amount: number) => ({
      teamId: created.team.id,
      mode: "test" as const,
      code: "spend_request",
      reference,
      debitAccountId: created.test.id,
      creditAccountId: settlement.id,
      amount
    })
    return { ...created, settlement, spend }
  })

/** Every ledger transaction of a team, newest first, read page by page. */
export const allTransactions = (teamId: TeamId) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const out: Array<LedgerTransaction> = []
    let cursor: string | undefined
    do {
      const page = yield* pageRequest(cursor, 100)
      const rows = yield* ledger.transactions(teamId, {}, page)
      out.push(...rows.slice(0, 100))
      const last = rows[99]
      cursor =
        rows.length > 100 && last
          ? Buffer.from(JSON.stringify({ createdAt: last.createdAt, id: last.id })).toString("base64url")
          : undefined
    } while (cursor !== undefined)
    return out
  })

const byAccount = (entries: ReadonlyArray<{ readonly accountId: string; readonly amount: number }>) =>
  entries.map((e) => [e.accountId, e.amount] as const).toSorted(([a], [b]) => a.localeCompare(b))

/**
 * Each hold is resolved at most once, and its resolution releases exactly what it held and posts at most that (all of
 * it, or part of it in the hold's directions).
 */
const assertHoldsResolveOnce = (txs: ReadonlyArray<LedgerTransaction>) => {
  const holds = new Map(txs.filter((t) => t.kind === "pending").map((t) => [t.id as string, t]))
  const resolutions = txs.filter((t) => t.pendingId !== null)
  assert.strictEqual(new Set(resolutions.map((t) => t.pendingId)).size, resolutions.length, "a hold resolves once")
  for (const resolution of resolutions) {
    const hold = holds.get(resolution.pendingId!)
    assert.isDefined(hold, `resolution ${resolution.id} resolves a hold`)
    const held = byAccount(hold!.entries)
    const side = (pending: boolean) => byAccount(resolution.entries.filter((e) => e.pending === pending))
    assert.deepStrictEqual(
      side(true),
      byAccount(hold!.entries.map((e) => ({ accountId: e.accountId, amount: -e.amount }))),
      `resolution ${resolution.id} releases exactly its hold`
    )
    const posted = side(false)
    if (resolution.kind === "void_pending") {
      assert.deepStrictEqual(posted, [], `resolution ${resolution.id} posts nothing when voided`)
      continue
    }
    // A partial posting posts one amount, at most the hold's, between the hold's accounts in its directions.
    const amount = Math.abs(posted[0]?.[1] ?? 0)
    assert.isTrue(
      amount > 0 && amount <= Math.abs(held[0]?.[1] ?? 0),
      `resolution ${resolution.id} posts at most its hold`
    )
    assert.deepStrictEqual(
      posted,
      held.map(([accountId, heldAmount]) => [accountId, Math.sign(heldAmount) * amount] as const),
      `resolution ${resolution.id} posts between the held accounts`
    )
  }
}

/**
 * Every invariant of a double-entry ledger for one team: transactions balance, balances equal their entries, holds
 * resolve at most once and exactly, spend accounts never go negative.
 */
export const assertLedgerInvariants = (teamId: TeamId) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const txs = yield* allTransactions(teamId)
    assertHoldsResolveOnce(txs)
    const sums = new Map<string, { posted: number; pending: number }>()
    for (const tx of txs) {
      for (const pending of [true, false]) {
        const group = tx.entries.filter((e) => e.pending === pending)
        assert.strictEqual(
          group.reduce((s, e) => s + e.amount, 0),
          0,
          `transaction ${tx.id} ${pending ? "pending" : "posted"} entries sum to zero`
        )
      }
      for (const e of tx.entries) {
        const s = sums.get(e.accountId) ?? { posted: 0, pending: 0 }
        sums.set(
          e.accountId,
          e.pending ? { ...s, pending: s.pending + e.amount } : { ...s, posted: s.posted + e.amount }
        )
      }
    }
    for (const account of yield* ledger.accounts(teamId, {})) {
      const s = sums.get(account.id) ?? { posted: 0, pending: 0 }
      assert.strictEqual(account.balance.posted, s.posted, `posted balance of ${account.kind} equals its entries`)
      assert.strictEqual(
        account.balance.pending,
        0 - s.pending,
        `pending balance of ${account.kind} equals its entries`
      )
      if (account.kind === "spend") {
        assert.isAtLeast(account.balance.posted, 0, "a spend account's posted balance never goes negative")
        assert.isAtLeast(account.balance.available, 0, "a spend account's available balance never goes negative")
      }
    }
  })
