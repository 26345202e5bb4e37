import { assert, layer } from "@effect/vitest"
import { PortsMemory } from "@svc/adapters-memory"
import { type AccountId, Ledger, type LedgerTransaction, type LedgerTransactionId } from "@svc/domain"
import { Effect, Schema } from "effect"
import { assertLedgerInvariants, domainOver, newTeam } from "./LedgerSetup.ts"

const int = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))
const Amount = int(1, 60)
const AnyAccount = int(0, 3)
const SpendAccount = int(0, 1)
const Pick = int(0, 30)

const Operation = Schema.Union([
  Schema.TaggedStruct("deposit", { to: SpendAccount, amount: Amount }),
  Schema.TaggedStruct("transfer", { from: AnyAccount, to: AnyAccount, amount: Amount }),
  Schema.TaggedStruct("hold", { from: AnyAccount, to: AnyAccount, amount: Amount }),
  Schema.TaggedStruct("post", { hold: Pick }),
  Schema.TaggedStruct("void", { hold: Pick })
])
type Operation = typeof Operation.Type

interface Model {
  readonly posted: Array<number>
  readonly outgoing: Array<number>
  readonly incoming: Array<number>
  readonly holds: Array<{ readonly tx: LedgerTransaction; from: number; to: number; amount: number; resolved: boolean }>
}

const availableIn = (model: Model, i: number) => model.posted[i]! - model.outgoing[i]!

const expectedFailure = (model: Model, op: Operation, kinds: ReadonlyArray<string>): string | null => {
  if (op._tag === "deposit") return null
  if (op._tag === "post" || op._tag === "void") {
    if (model.holds.length === 0) return "HoldNotFound"
    return model.holds[op.hold % model.holds.length]!.resolved ? "HoldAlreadyResolved" : null
  }
  if (op.from === op.to) return "UnbalancedTransaction"
  return kinds[op.from] === "spend" && op.amount > availableIn(model, op.from) ? "InsufficientFunds" : null
}

const apply = (model: Model, op: Operation, tx: LedgerTransaction) => {
  const move = (from: number, to: number, amount: number) => {
    model.posted[from]! -= amount
    model.posted[to]! += amount
  }
  switch (op._tag) {
    case "deposit":
      return move(3, op.to, op.amount)
    case "transfer":
      return move(op.from, op.to, op.amount)
    case "hold":
      model.outgoing[op.from]! += op.amount
      model.incoming[op.to]! += op.amount
      model.holds.push({ tx, from: op.from, to: op.to, amount: op.amount, resolved: false })
      return
    default: {
      const hold = model.holds[op.hold % model.holds.length]!
      hold.resolved = true
      model.outgoing[hold.from]! -= hold.amount
      model.incoming[hold.to]! -= hold.amount
      if (op._tag === "post") move(hold.from, hold.to, hold.amount)
    }
  }
}

layer(domainOver(PortsMemory), { timeout: "60 seconds" })(
  "Ledger under random operation sequences (in-memory)",
  (it) => {
    it.effect.prop(
      "balances follow the operations that succeed; refusals are exactly the overdrafts, self-moves and resolved holds",
      [Schema.Array(Operation).check(Schema.isMaxLength(40))],
      ([operations]) =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const { team, test } = yield* newTeam
          const second = yield* ledger.openTeamAccounts({ teamId: team.id, mode: "test", name: "B", currency: "USD" })
          const settlement = yield* ledger.settlementAccount(team.id, "test", "USD")
          const [external] = yield* ledger.accounts(team.id, { mode: "test", kind: "external" })
          const accounts: ReadonlyArray<{ readonly id: AccountId; readonly kind: string }> = [
            test,
            second,
            settlement,
            external!
          ]
          const kinds = accounts.map((a) => a.kind)
          const model: Model = { posted: [0, 0, 0, 0], outgoing: [0, 0, 0, 0], incoming: [0, 0, 0, 0], holds: [] }
          const movement = (reference: string, from: number, to: number, amount: number) => ({
            teamId: team.id,
            mode: "test" as const,
            code: "transfer",
            reference,
            debitAccountId: accounts[from]!.id,
            creditAccountId: accounts[to]!.id,
            amount
          })
          const holdId = (pick: number) =>
            model.holds.length === 0
              ? (crypto.randomUUID() as LedgerTransactionId)
              : model.holds[pick % model.holds.length]!.tx.id
          for (const [step, op] of operations.entries()) {
            const reference = `op-${step}`
            const run: Effect.Effect<LedgerTransaction, { readonly _tag: string }> =
              op._tag === "deposit"
                ? ledger.deposit({
                    teamId: team.id,
                    mode: "test",
                    accountId: accounts[op.to]!.id,
                    amount: op.amount,
                    currency: "USD",
                    reference
                  })
                : op._tag === "transfer"
                  ? ledger.transfer(movement(reference, op.from, op.to, op.amount))
                  : op._tag === "hold"
                    ? ledger.hold(movement(reference, op.from, op.to, op.amount))
                    : op._tag === "post"
                      ? ledger.postHold(team.id, holdId(op.hold))
                      : ledger.voidHold(team.id, holdId(op.hold))
            const expected = expectedFailure(model, op, kinds)
            const result = yield* Effect.result(run)
            const label = `step ${step}: ${JSON.stringify(op)}`
            if (result._tag === "Failure") assert.strictEqual(result.failure._tag, expected, label)
            else {
              assert.isNull(expected, label)
              apply(model, op, result.success)
            }
            for (const [i, account] of accounts.entries()) {
              const { balance } = yield* ledger.account(team.id, account.id)
              assert.deepStrictEqual(
                balance,
                {
                  posted: model.posted[i]!,
                  pending: model.outgoing[i]! - model.incoming[i]!,
                  available: account.kind === "spend" ? availableIn(model, i) : balance.available
                },
                `${label}: balance of account ${i}`
              )
            }
          }
          yield* assertLedgerInvariants(team.id)
        }),
      { timeout: 60_000, arbitrary: { runs: 60, size: 40 } }
    )
  }
)
