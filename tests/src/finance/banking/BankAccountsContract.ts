import { assert, layer } from "@effect/vitest"
import {
  type BankAccount,
  BankAccountId,
  BankAccounts,
  BankAccountsRepo,
  BankConnectionsRepo,
  type ExchangeRates,
  Tags,
  type TagsRepo
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { domainOver, type LedgerPorts, newTeam } from "../../ledger/LedgerSetup.ts"

type Ports = LedgerPorts<BankAccountsRepo | BankConnectionsRepo | ExchangeRates | TagsRepo>

/** A connected account of the team, fed by a new bank connection. */
const connectedAccount = (teamId: BankAccount["teamId"]) =>
  Effect.gen(function* () {
    const at = "2026-03-01T10:00:00.000Z"
    const connectionId = crypto.randomUUID()
    yield* (yield* BankConnectionsRepo).insert({
      id: connectionId,
      teamId,
      provider: "bank-aggregator-a",
      externalId: `item-${connectionId}`,
      status: "connected",
      createdAt: at,
      updatedAt: at
    })
    const account: BankAccount = {
      id: BankAccountId.make(crypto.randomUUID()),
      teamId,
      name: "Business checking",
      type: "depository",
      currency: "USD",
      balanceMinor: 123_45,
      baseCurrency: "USD",
      baseBalanceMinor: 123_45,
      enabled: true,
      manual: false,
      connectionId,
      externalId: "acc-1",
      createdAt: at,
      updatedAt: at
    }
    yield* (yield* BankAccountsRepo).insert(account)
    return account
  })

/** Bank accounts and tags as the domain uses them, on any adapter. */
export const bankAccountsContract = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(Layer.mergeAll(BankAccounts.layer, Tags.layer).pipe(Layer.provideMerge(domainOver(ports))), {
    timeout: "60 seconds"
  })(`bank accounts and tags in the domain (${name})`, (it) => {
    it.effect("a connected account is found by its aggregator id; its balance is never set by hand", () =>
      Effect.gen(function* () {
        const { team } = yield* newTeam
        const { team: other } = yield* newTeam
        const account = yield* connectedAccount(team.id)
        const repo = yield* BankAccountsRepo
        assert.deepStrictEqual(
          yield* repo.findByExternalId(team.id, account.connectionId!, "acc-1"),
          Option.some(account)
        )
        assert.isTrue(Option.isNone(yield* repo.findByExternalId(other.id, account.connectionId!, "acc-1")))
        assert.deepStrictEqual(
          (yield* repo.list(team.id, { manual: false })).map((a) => a.id),
          [account.id]
        )

        const accounts = yield* BankAccounts
        const refused = yield* Effect.flip(accounts.update(team.id, account.id, { balance: 1 }))
        assert.strictEqual(refused._tag, "BankAccountConnected")
        const renamed = yield* accounts.update(team.id, account.id, { name: "Operating", enabled: false })
        assert.deepInclude(renamed, { name: "Operating", enabled: false, balanceMinor: 123_45, manual: false })

        const manual = yield* accounts.create(team.id, { name: "Cash", currency: "USD" })
        assert.deepStrictEqual(
          (yield* accounts.requireAll(team.id, [account.id, manual.id, account.id], "bankAccountIds")).map((a) => a.id),
          [account.id, manual.id]
        )
        const missing = yield* Effect.flip(accounts.requireAll(other.id, [account.id], "bankAccountIds"))
        assert.deepInclude(missing, { _tag: "BankAccountNotFound", field: "bankAccountIds", bankAccountId: account.id })
      })
    )

    it.effect("tags: every referenced id must be the team's, the first missing one named", () =>
      Effect.gen(function* () {
        const { team } = yield* newTeam
        const { team: other } = yield* newTeam
        const tags = yield* Tags
        const a = yield* tags.create(team.id, "a")
        const b = yield* tags.create(team.id, "b")
        const foreign = yield* tags.create(other.id, "a")
        yield* tags.requireAll(team.id, [a.id, b.id], "tagIds")
        const refused = yield* Effect.flip(tags.requireAll(team.id, [a.id, foreign.id], "tagIds"))
        assert.deepInclude(refused, { _tag: "TagNotFound", tagId: foreign.id, field: "tagIds" })
      })
    )
  })
