import { assert, layer } from "@effect/vitest"
import {
  BankAccounts,
  type BankAccountsRepo,
  Categories,
  type CategoryId,
  type CreateTransaction,
  type ExchangeRates,
  Tags,
  type TagsRepo,
  type TeamId,
  type TransactionId,
  type TransactionQuery,
  Transactions,
  type TransactionsRepo,
  transactionView
} from "@svc/domain"
import { Effect, Exit, Layer } from "effect"
import { domainOver, type LedgerPorts, newTeam } from "../../ledger/LedgerSetup.ts"

const item = (overrides: Partial<CreateTransaction> = {}): CreateTransaction => ({
  name: "Coffee",
  date: "2026-03-01",
  amount: -4.5,
  currency: "USD",
  ...overrides
})

/** The field a refused effect names (TransactionInvalid or a reference not found). */
const refusedField = <A, E>(self: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const exit = yield* Effect.exit(self)
    if (Exit.isSuccess(exit)) return assert.fail("expected a refusal")
    const error = exit.cause.reasons.find((r) => r._tag === "Fail")
    if (error === undefined || error._tag !== "Fail") return assert.fail(`expected a failure, got ${exit.cause}`)
    const failure = error.error as { readonly _tag: string; readonly field: string | null }
    return `${failure._tag}:${failure.field}`
  })

/** Every transaction of a query, page by page (pages of `limit`). */
const allPages = (teamId: TeamId, query: TransactionQuery, limit: number) =>
  Effect.gen(function* () {
    const transactions = yield* Transactions
    const names: Array<string> = []
    let cursor: string | undefined
    let pages = 0
    do {
      const page = yield* transactions.list(teamId, { ...query, limit, ...(cursor === undefined ? {} : { cursor }) })
      assert.strictEqual(page.hasPreviousPage, cursor !== undefined)
      names.push(...page.data.map((d) => d.transaction.name))
      cursor = page.cursor ?? undefined
      assert.strictEqual(page.hasNextPage, cursor !== undefined)
      pages++
    } while (cursor !== undefined && pages < 100)
    return names
  })

const namesOf = (teamId: TeamId, query: TransactionQuery) =>
  Effect.map(
    Effect.flatMap(Transactions, (t) => t.list(teamId, { ...query, limit: 100 })),
    (page) => page.data.map((d) => d.transaction.name).toSorted()
  )

/** The transactions service over any adapter: shape, validation, filters, cursor order, bulk atomicity, files. */
export const transactionsContract = <E>(
  name: string,
  ports: Layer.Layer<LedgerPorts<TransactionsRepo | TagsRepo | BankAccountsRepo | ExchangeRates>, E>
) =>
  layer(
    Layer.mergeAll(Transactions.layer, Tags.layer, BankAccounts.layer, Categories.layer).pipe(
      Layer.provideMerge(domainOver(ports))
    ),
    { timeout: "120 seconds" }
  )(`transactions (${name})`, (it) => {
    it.effect("a manual transaction keeps exact amounts, its category, account and tags", () =>
      Effect.gen(function* () {
        const transactions = yield* Transactions
        const { team } = yield* newTeam
        const tag = yield* (yield* Tags).create(team.id, "travel")
        const account = yield* (yield* BankAccounts).create(team.id, { name: "Operating", currency: "EUR" })
        const created = yield* transactions.create(
          team.id,
          item({
            name: "Hotel",
            amount: -99999.99,
            currency: "EUR",
            date: "2026-03-02T23:30:00-02:00",
            categorySlug: "travel",
            bankAccountId: account.id,
            tagIds: [tag.id, tag.id],
            taxRate: 19,
            counterpartyName: "Grand Hotel",
            baseAmount: -108000.5,
            baseCurrency: "USD"
          })
        )
        const view = transactionView(created)
        assert.strictEqual(view.amount, -99999.99)
        assert.strictEqual(view.baseAmount, -108000.5)
        assert.strictEqual(view.date, "2026-03-03T00:00:00.000Z", "the UTC day of a date-time")
        assert.strictEqual(view.category?.slug, "travel")
        assert.strictEqual(view.taxRate, 19)
        // 9,999,999 × 19 / 119 = 1,596,638.49… minor units, rounded half away from zero
        assert.strictEqual(view.taxAmount, -15966.38)
        assert.deepStrictEqual(view.account, { id: account.id, name: "Operating", currency: "EUR", connection: null })
        assert.deepStrictEqual(view.tags, [{ id: tag.id, name: "travel" }])
        assert.strictEqual(view.manual, true)
        assert.strictEqual(view.status, "posted")
        assert.deepStrictEqual(view.attachments, [])
        assert.strictEqual(view.isFulfilled, false)
        assert.deepStrictEqual(yield* transactions.get(team.id, created.transaction.id), created)

        for (const [amount, currency, expected] of [
          [0.01, "USD", 0.01],
          [5, "JPY", 5],
          [-1.234, "KWD", -1.234],
          [0.1, "EUR", 0.1]
        ] as const) {
          const t = yield* transactions.create(team.id, item({ amount, currency }))
          assert.strictEqual(transactionView(t).amount, expected)
        }
      })
    )

    it.effect("refusals name the field; another team's references are not found", () =>
      Effect.gen(function* () {
        const transactions = yield* Transactions
        const { team } = yield* newTeam
        const { team: other } = yield* newTeam
        const otherTag = yield* (yield* Tags).create(other.id, "theirs")
        const otherAccount = yield* (yield* BankAccounts).create(other.id, { name: "Theirs", currency: "USD" })
        const otherCategory = (yield* (yield* Categories).list(other.id))[0]!
        const refused = (input: Partial<CreateTransaction>) => refusedField(transactions.create(team.id, item(input)))
        assert.strictEqual(yield* refused({ amount: 12.345 }), "TransactionInvalid:amount")
        assert.strictEqual(yield* refused({ amount: 1.5, currency: "JPY" }), "TransactionInvalid:amount")
        assert.strictEqual(yield* refused({ baseAmount: 1 }), "TransactionInvalid:baseCurrency")
        assert.strictEqual(yield* refused({ baseAmount: 1.001, baseCurrency: "EUR" }), "TransactionInvalid:baseAmount")
        assert.strictEqual(yield* refused({ categoryId: otherCategory.id }), "TransactionReferenceNotFound:categoryId")
        assert.strictEqual(yield* refused({ categorySlug: "no-such" }), "TransactionReferenceNotFound:categorySlug")
        assert.strictEqual(yield* refused({ tagIds: [otherTag.id] }), "TransactionReferenceNotFound:tagIds.0")
        assert.strictEqual(
          yield* refused({ bankAccountId: otherAccount.id }),
          "TransactionReferenceNotFound:bankAccountId"
        )
        const mine = yield* transactions.create(team.id, item())
        assert.strictEqual(
          yield* refusedField(transactions.get(other.id, mine.transaction.id)),
          "TransactionNotFound:null"
        )
        assert.strictEqual(
          yield* refusedField(transactions.update(other.id, mine.transaction.id, { name: "x" })),
          "TransactionNotFound:null"
        )
        assert.strictEqual(
          yield* refusedField(transactions.update(team.id, mine.transaction.id, { amount: 0.001 })),
          "TransactionInvalid:amount"
        )
        assert.strictEqual(
          yield* refusedField(transactions.update(team.id, mine.transaction.id, { currency: "JPY" })),
          "TransactionInvalid:currency",
          "-4.5 USD has no JPY equivalent"
        )
        assert.strictEqual((yield* transactions.list(team.id, {})).data.length, 1, "nothing written by refusals")
        assert.strictEqual(
          yield* refusedField(transactions.list(team.id, { from: "2026-03-02", to: "2026-03-01" })),
          "TransactionInvalid:from"
        )
        assert.strictEqual(
          yield* refusedField(transactions.list(team.id, { amountMin: 1.001, currency: "USD" })),
          "TransactionInvalid:amountMin"
        )
        assert.strictEqual(
          yield* refusedField(transactions.list(team.id, { amountMin: 1 })),
          "TransactionInvalid:currency"
        )
        assert.strictEqual(
          yield* refusedField(transactions.list(team.id, { tags: [otherTag.id] })),
          "TransactionReferenceNotFound:tags.0"
        )
        assert.strictEqual(
          yield* refusedField(transactions.list(team.id, { categories: ["travel", "nope"] })),
          "TransactionReferenceNotFound:categories.1"
        )
        assert.strictEqual(
          yield* refusedField(transactions.list(team.id, { cursor: "date~desc~2026-01-01~nope" })),
          "TransactionInvalid:cursor"
        )
      })
    )

    it.effect("updates change fields, replace tags and keep exact amounts", () =>
      Effect.gen(function* () {
        const transactions = yield* Transactions
        const { team } = yield* newTeam
        const tags = yield* Tags
        const a = yield* tags.create(team.id, "a")
        const b = yield* tags.create(team.id, "b")
        const created = yield* transactions.create(team.id, item({ tagIds: [a.id], categorySlug: "travel" }))
        const id = created.transaction.id
        const updated = yield* transactions.update(team.id, id, {
          amount: -1000,
          currency: "JPY",
          tagIds: [b.id],
          categoryId: null,
          note: "receipt lost",
          frequency: "monthly"
        })
        const view = transactionView(updated)
        assert.strictEqual(view.amount, -1000)
        assert.strictEqual(view.currency, "JPY")
        assert.deepStrictEqual(view.tags, [{ id: b.id, name: "b" }])
        assert.isNull(view.category)
        assert.strictEqual(view.note, "receipt lost")
        assert.strictEqual(view.recurring, true)
        assert.strictEqual(view.frequency, "monthly")
        const kwd = yield* transactions.update(team.id, id, { currency: "KWD" })
        assert.strictEqual(transactionView(kwd).amount, -1000, "the same major amount in the new currency")
        assert.strictEqual(kwd.transaction.amountMinor, -1_000_000)

        yield* (yield* Tags).remove(team.id, b.id)
        assert.deepStrictEqual((yield* transactions.get(team.id, id)).tags, [], "a deleted tag leaves")
      })
    )

    it.effect("filters: dates, text, category, tags, account, type, status, amount, files, recurring", () =>
      Effect.gen(function* () {
        const transactions = yield* Transactions
        const { team } = yield* newTeam
        const tag = yield* (yield* Tags).create(team.id, "client-x")
        const account = yield* (yield* BankAccounts).create(team.id, { name: "Card", currency: "USD" })
        const rows: ReadonlyArray<Partial<CreateTransaction>> = [
          { name: "Invoice 1001", amount: 1500, date: "2026-01-05", categorySlug: "revenue", tagIds: [tag.id] },
          { name: "Adobe subscription", amount: -59.99, date: "2026-01-10", recurring: true, frequency: "monthly" },
          { name: "Taxi", amount: -23.4, date: "2026-02-01", bankAccountId: account.id, status: "pending" },
          {
            name: "Lunch",
            amount: -12,
            date: "2026-02-14",
            description: "team offsite",
            counterpartyName: "Café Müller"
          },
          { name: "Refund", amount: 59.99, date: "2026-03-01", categorySlug: "customer-refunds", status: "archived" },
          { name: "Yen", amount: -3000, currency: "JPY", date: "2026-03-02" }
        ]
        const created = yield* transactions.createMany(
          team.id,
          rows.map((r) => item(r))
        )
        yield* transactions.addAttachment(team.id, created[2]!.transaction.id, {
          path: [team.id, "transactions", "taxi.pdf"],
          name: "taxi.pdf",
          size: 1234,
          type: "application/pdf"
        })
        const q = (query: TransactionQuery) => namesOf(team.id, query)
        assert.deepStrictEqual(yield* q({ from: "2026-02-01", to: "2026-02-14" }), ["Lunch", "Taxi"])
        assert.deepStrictEqual(yield* q({ from: "2026-03-01T00:00:00Z" }), ["Refund", "Yen"])
        assert.deepStrictEqual(yield* q({ q: "adob" }), ["Adobe subscription"])
        assert.deepStrictEqual(yield* q({ q: "OFFSITE" }), ["Lunch"], "the description")
        assert.deepStrictEqual(yield* q({ q: "müller" }), ["Lunch"], "the counterparty")
        assert.deepStrictEqual(yield* q({ q: "team müll" }), ["Lunch"], "every word")
        assert.deepStrictEqual(yield* q({ q: "team taxi" }), [])
        assert.deepStrictEqual(yield* q({ categories: ["revenue"] }), ["Invoice 1001"])
        const refunds = created[4]!.transaction.categoryId!
        assert.deepStrictEqual(yield* q({ categories: [refunds, "revenue"] }), ["Invoice 1001", "Refund"])
        assert.strictEqual((yield* q({ categories: ["uncategorized"] })).length, 4)
        assert.deepStrictEqual(yield* q({ tags: [tag.id] }), ["Invoice 1001"])
        assert.deepStrictEqual(yield* q({ bankAccounts: [account.id] }), ["Taxi"])
        assert.deepStrictEqual(yield* q({ type: "income" }), ["Invoice 1001", "Refund"])
        assert.strictEqual((yield* q({ type: "expense" })).length, 4)
        assert.deepStrictEqual(yield* q({ statuses: ["pending", "archived"] }), ["Refund", "Taxi"])
        assert.deepStrictEqual(yield* q({ amountMin: 50, amountMax: 60, currency: "USD" }), [
          "Adobe subscription",
          "Refund"
        ])
        assert.deepStrictEqual(yield* q({ amountMin: "59.99", amountMax: 59.99, currency: "USD" }), [
          "Adobe subscription",
          "Refund"
        ])
        assert.deepStrictEqual(yield* q({ amountMin: 1000, currency: "JPY" }), ["Yen"])
        assert.deepStrictEqual(yield* q({ currency: "JPY" }), ["Yen"])
        assert.deepStrictEqual(yield* q({ attachments: true }), ["Taxi"])
        assert.strictEqual((yield* q({ attachments: false })).length, 5)
        assert.deepStrictEqual(yield* q({ recurring: true }), ["Adobe subscription"])
        assert.deepStrictEqual(yield* q({ recurring: true, frequencies: ["weekly"] }), [])
        assert.deepStrictEqual(yield* q({ type: "expense", from: "2026-02-01", q: "taxi", attachments: true }), [
          "Taxi"
        ])
      })
    )

    it.effect("cursor pages follow each order exactly, ties broken by id", () =>
      Effect.gen(function* () {
        const transactions = yield* Transactions
        const { team } = yield* newTeam
        const days = ["2026-01-01", "2026-01-02", "2026-01-02", "2026-01-03", "2026-01-03", "2026-01-03"]
        const amounts = [-5, 10, -5, 7.5, 10, -0.01]
        const created = yield* transactions.createMany(
          team.id,
          Array.from({ length: 13 }, (_, i) =>
            item({ name: `t${String(i).padStart(2, "0")}`, date: days[i % 6]!, amount: amounts[i % 6]! })
          )
        )
        const all = created.map((c) => c.transaction)
        for (const by of ["date", "amount"] as const) {
          for (const direction of ["asc", "desc"] as const) {
            const key = (t: (typeof all)[number]) => (by === "date" ? t.date : t.amountMinor)
            const expected = all
              .toSorted((a, b) => {
                const order = key(a) === key(b) ? (a.id < b.id ? -1 : 1) : key(a) < key(b) ? -1 : 1
                return direction === "asc" ? order : -order
              })
              .map((t) => t.name)
            for (const limit of [1, 4, 13, 20]) {
              assert.deepStrictEqual(
                yield* allPages(team.id, { sortBy: by, direction }, limit),
                expected,
                `${by} ${direction} by ${limit}`
              )
            }
          }
        }
        const first = yield* transactions.list(team.id, { sortBy: "date", limit: 2 })
        assert.strictEqual(
          yield* refusedField(transactions.list(team.id, { sortBy: "amount", cursor: first.cursor! })),
          "TransactionInvalid:cursor",
          "a cursor of another order"
        )
      })
    )

    it.effect("bulk requests are all or nothing, naming the item", () =>
      Effect.gen(function* () {
        const transactions = yield* Transactions
        const { team } = yield* newTeam
        const { team: other } = yield* newTeam
        const count = Effect.map(transactions.list(team.id, { limit: 100 }), (p) => p.data.length)
        assert.strictEqual(
          yield* refusedField(
            transactions.createMany(team.id, [item(), item(), item({ amount: 1.234 }), item({ currency: "JPY" })])
          ),
          "TransactionInvalid:2.amount"
        )
        assert.strictEqual(yield* count, 0)
        const created = yield* transactions.createMany(team.id, [item({ name: "a" }), item({ name: "b" })])
        const [a, b] = created.map((c) => c.transaction.id) as [TransactionId, TransactionId]
        const theirs = (yield* transactions.create(other.id, item())).transaction.id
        assert.strictEqual(
          yield* refusedField(
            transactions.updateMany(team.id, [
              { id: a, name: "A" },
              { id: theirs, name: "stolen" }
            ])
          ),
          "TransactionNotFound:1.id"
        )
        assert.strictEqual(
          yield* refusedField(
            transactions.updateMany(team.id, [
              { id: a, name: "A" },
              { id: b, amount: 0.001 }
            ])
          ),
          "TransactionInvalid:1.amount"
        )
        assert.strictEqual((yield* transactions.get(team.id, a)).transaction.name, "a", "nothing updated")
        const updated = yield* transactions.updateMany(team.id, [
          { id: a, name: "A" },
          { id: b, status: "completed" }
        ])
        assert.deepStrictEqual(
          updated.map((u) => [u.transaction.name, u.transaction.status]),
          [
            ["A", "posted"],
            ["b", "completed"]
          ]
        )
        assert.strictEqual(yield* refusedField(transactions.removeMany(team.id, [a, theirs])), "TransactionNotFound:1")
        assert.strictEqual(yield* count, 2, "nothing deleted")
        assert.strictEqual((yield* transactions.get(other.id, theirs)).transaction.teamId, other.id)
        assert.deepStrictEqual((yield* transactions.removeMany(team.id, [b, a])).toSorted(), [a, b].toSorted())
        assert.strictEqual(yield* count, 0)
      })
    )

    it.effect("attachments point at the team's files and go with their transaction", () =>
      Effect.gen(function* () {
        const transactions = yield* Transactions
        const { team } = yield* newTeam
        const { team: other } = yield* newTeam
        const created = yield* transactions.create(team.id, item())
        const id = created.transaction.id
        const file = {
          path: [team.id, "receipts", "a.png"],
          name: "a.png",
          size: 10,
          type: "image/png"
        }
        assert.strictEqual(
          yield* refusedField(transactions.addAttachment(team.id, id, { ...file, path: [other.id, "a.png"] })),
          "TransactionInvalid:path.0"
        )
        assert.strictEqual(
          yield* refusedField(transactions.addAttachment(team.id, id, { ...file, path: [team.id, "..", "x"] })),
          "TransactionInvalid:path"
        )
        assert.strictEqual(
          yield* refusedField(transactions.addAttachment(other.id, id, { ...file, path: [other.id, "a.png"] })),
          "TransactionNotFound:null"
        )
        const attachment = yield* transactions.addAttachment(team.id, id, file)
        const view = transactionView(yield* transactions.get(team.id, id))
        assert.deepStrictEqual(view.attachments, [
          { id: attachment.id, path: file.path, size: 10, type: "image/png", filename: "a.png" }
        ])
        assert.strictEqual(view.isFulfilled, true)
        assert.isTrue(Exit.isFailure(yield* Effect.exit(transactions.removeAttachment(other.id, id, attachment.id))))
        yield* transactions.removeAttachment(team.id, id, attachment.id)
        assert.deepStrictEqual((yield* transactions.get(team.id, id)).attachments, [])
        assert.isTrue(Exit.isFailure(yield* Effect.exit(transactions.removeAttachment(team.id, id, attachment.id))))

        yield* transactions.addAttachment(team.id, id, file)
        const removed = yield* transactions.remove(team.id, id)
        assert.strictEqual(removed.attachments.length, 1, "answered as it was")
        assert.isTrue(Exit.isFailure(yield* Effect.exit(transactions.get(team.id, id))))
      })
    )

    it.effect("a deleted category leaves its transactions uncategorised; a deleted account takes them", () =>
      Effect.gen(function* () {
        const transactions = yield* Transactions
        const categories = yield* Categories
        const { team } = yield* newTeam
        const category = yield* categories.create(team.id, { name: "Studio", color: "#123456" })
        const account = yield* (yield* BankAccounts).create(team.id, { name: "Old", currency: "USD" })
        const t = yield* transactions.create(team.id, item({ categoryId: category.id as CategoryId }))
        const onAccount = yield* transactions.create(team.id, item({ bankAccountId: account.id }))
        yield* categories.remove(team.id, category.id)
        const after = yield* transactions.get(team.id, t.transaction.id)
        assert.isNull(after.category)
        assert.isNull(after.transaction.categoryId)
        yield* (yield* BankAccounts).remove(team.id, account.id)
        assert.isTrue(Exit.isFailure(yield* Effect.exit(transactions.get(team.id, onAccount.transaction.id))))
        assert.deepStrictEqual(
          (yield* transactions.list(team.id, {})).data.map((d) => d.transaction.id),
          [t.transaction.id]
        )
      })
    )
  })
