import { assert, layer } from "@effect/vitest"
import { PortsPg, runMigrations } from "@svc/adapters-pg"
import { TestDatabaseBefore } from "@svc/adapters-pg/testing"
import {
  CategoriesRepo,
  type Category,
  CategoryId,
  STANDARD_CATEGORIES,
  standardCategoriesOf,
  TeamId
} from "@svc/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/** The service's first taxonomy, as migration 0022 and team opening seeded it before 0050: [parent, type, children]. */
const FIRST_TAXONOMY: ReadonlyArray<readonly [string, string, ReadonlyArray<string>]> = [
  [
    "revenue",
    "revenue",
    [
      "income",
      "product-sales",
      "service-revenue",
      "consulting-revenue",
      "subscription-revenue",
      "interest-income",
      "other-income",
      "customer-refunds",
      "chargebacks-disputes"
    ]
  ],
  [
    "cost-of-goods-sold",
    "cost_of_goods_sold",
    ["inventory", "raw-materials", "manufacturing", "shipping-inbound", "duties-customs"]
  ],
  ["sales-marketing", "expense", ["marketing", "advertising", "website", "events"]],
  ["operations", "expense", ["rent", "utilities", "office-supplies", "equipment", "internet-and-phone", "shipping"]],
  ["professional-services", "expense", ["legal", "accounting", "contractors", "insurance"]],
  ["human-resources", "expense", ["salary", "benefits", "training", "recruiting"]],
  ["travel-entertainment", "expense", ["travel", "meals", "entertainment"]],
  ["technology", "expense", ["software", "hardware", "hosting"]],
  ["banking-finance", "expense", ["bank-fees", "payment-processing-fees", "interest-expense", "loan-repayment"]],
  ["taxes-government", "expense", ["taxes", "licenses-permits"]],
  ["internal-transfers", "transfer", []],
  ["credit-card-payments", "transfer", []]
]
const CONTRA = new Set(["customer-refunds", "chargebacks-disputes"])
const FIRST_ONLY = ["raw-materials", "legal", "accounting", "recruiting", "hardware", "hosting"]
const OLD_COLOR = "#123456"

const newTeam = (sql: SqlClient.SqlClient, name: string) =>
  Effect.gen(function* () {
    const id = TeamId.make(crypto.randomUUID())
    yield* sql`INSERT INTO teams (id, name, base_currency, created_at) VALUES (${id}, ${name}, 'EUR', now())`
    return id
  })

const category = (
  sql: SqlClient.SqlClient,
  team: TeamId,
  fields: { slug: string; type: string; parent?: string | null; system: boolean; name?: string; edited?: boolean }
) =>
  Effect.gen(function* () {
    const id = crypto.randomUUID()
    const created = "2026-01-01T00:00:00Z"
    const excluded = fields.slug === "internal-transfers" || fields.slug === "credit-card-payments"
    yield* sql`
      INSERT INTO transaction_categories
        (id, team_id, slug, name, color, parent_id, type, excluded, system, created_at, updated_at)
      VALUES (${id}, ${team}, ${fields.slug}, ${fields.name ?? `Old ${fields.slug}`}, ${OLD_COLOR}, ${fields.parent ?? null},
              ${fields.type}, ${excluded}, ${fields.system}, ${created},
              ${fields.edited === true ? "2026-02-01T00:00:00Z" : created})`
    return id
  })

const transaction = (sql: SqlClient.SqlClient, team: TeamId, categoryId: string) =>
  Effect.gen(function* () {
    const id = crypto.randomUUID()
    yield* sql`
      INSERT INTO transactions (id, team_id, date, name, amount_minor, currency, status, manual, category_id, updated_at)
      VALUES (${id}, ${team}, '2026-01-05', 'Spend', -1000, 'EUR', 'posted', true, ${categoryId}, now())`
    return id
  })

layer(PortsPg.pipe(Layer.provideMerge(TestDatabaseBefore(50))), { timeout: "60 seconds" })(
  "migration 0050 (the twin's category taxonomy)",
  (it) => {
    it.effect("moves a team from the first taxonomy to the twin's, every transaction keeping its category", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const repo = yield* CategoriesRepo
        const acme = yield* newTeam(sql, "Acme")
        const ids = new Map<string, string>()
        for (const [parent, type, children] of FIRST_TAXONOMY) {
          const parentId = yield* category(sql, acme, {
            slug: parent,
            type,
            system: true,
            edited: parent === "operations"
          })
          ids.set(parent, parentId)
          for (const child of children) {
            const childType = CONTRA.has(child) ? "contra_revenue" : type
            ids.set(
              child,
              yield* category(sql, acme, {
                slug: child,
                type: childType,
                parent: parentId,
                system: true,
                ...(child === "office-supplies" ? { name: "Stationery", edited: true } : {})
              })
            )
          }
        }
        const customFees = yield* category(sql, acme, { slug: "fees", type: "expense", system: false, name: "My fees" })
        const customFeesCustom = yield* category(sql, acme, { slug: "fees-custom", type: "expense", system: false })
        const customOther = yield* category(sql, acme, { slug: "other", type: "expense", system: false, name: "Misc" })
        const categorised = new Map<string, string>()
        for (const slug of [
          "bank-fees",
          "internal-transfers",
          "credit-card-payments",
          "taxes",
          "taxes-government",
          "raw-materials",
          "entertainment",
          "office-supplies",
          "software"
        ]) {
          categorised.set(slug, yield* transaction(sql, acme, ids.get(slug)!))
        }
        const onCustomFees = yield* transaction(sql, acme, customFees)
        const onCustomOther = yield* transaction(sql, acme, customOther)

        const twin = yield* newTeam(sql, "Already on the twin's taxonomy")
        const twinIds = STANDARD_CATEGORIES.map(() => CategoryId.make(crypto.randomUUID()))
        yield* repo.insert(standardCategoriesOf(twin, twinIds, "2026-03-01T00:00:00.000Z"))
        const twinBefore = yield* repo.list(twin)

        const applied = (yield* runMigrations()).map(([n]) => n)
        assert.strictEqual(applied[0], 50)

        const after = yield* repo.list(acme)
        const bySlug = new Map(after.map((c) => [c.slug, c]))
        const byId = new Map(after.map((c) => [c.id as string, c]))
        for (const standard of STANDARD_CATEGORIES) {
          const moved = bySlug.get(standard.slug)
          assert.isDefined(moved, standard.slug)
          assert.isTrue(moved!.system, `${standard.slug} is a standard category`)
          assert.strictEqual(moved!.type, standard.type, `${standard.slug}'s type`)
          assert.strictEqual(
            moved!.parentId === null ? null : byId.get(moved!.parentId)!.slug,
            standard.parent,
            `${standard.slug}'s parent`
          )
          if (standard.slug !== "office-supplies" && standard.slug !== "operations") {
            assert.deepStrictEqual([moved!.name, moved!.color], [standard.name, standard.color], standard.slug)
          }
        }
        assert.deepStrictEqual(
          [bySlug.get("office-supplies")!.name, bySlug.get("office-supplies")!.color],
          ["Stationery", OLD_COLOR],
          "a name a member gave is kept"
        )
        assert.strictEqual(bySlug.get("operations")!.color, OLD_COLOR, "a changed category keeps its color")
        for (const [from, to] of [
          ["bank-fees", "banking-fees"],
          ["internal-transfers", "internal-transfer"],
          ["credit-card-payments", "credit-card-payment"],
          ["taxes-government", "taxes"],
          ["entertainment", "activity"],
          ["software", "software"]
        ] as const) {
          assert.strictEqual(byId.get(ids.get(from)!)!.slug, to, `${from} renamed in place`)
        }
        assert.isTrue(bySlug.get("internal-transfer")!.excluded)
        assert.isTrue(bySlug.get("credit-card-payment")!.excluded)

        for (const slug of FIRST_ONLY) {
          const kept = byId.get(ids.get(slug)!)!
          assert.deepInclude(kept, { slug, system: false, name: `Old ${slug}` }, `${slug} is the team's own now`)
          assert.isNotNull(kept.parentId)
        }
        const oldTaxes = byId.get(ids.get("taxes")!)!
        assert.deepInclude(oldTaxes, { slug: "taxes-custom", system: false, name: "Old taxes" })
        assert.strictEqual(byId.get(oldTaxes.parentId!)!.slug, "taxes")
        const fees = byId.get(customFees)!
        assert.isFalse(fees.system)
        assert.strictEqual(fees.name, "My fees")
        assert.match(fees.slug, /^fees-custom-[0-9a-f]{8}$/u, "fees-custom was taken")
        assert.strictEqual(byId.get(customFeesCustom)!.slug, "fees-custom")
        assert.deepInclude(byId.get(customOther)!, { slug: "other-custom", name: "Misc", system: false })
        assert.notStrictEqual<string>(bySlug.get("fees")!.id, customFees)
        assert.isTrue(bySlug.get("fees")!.system)

        const categoryOf = (transactionId: string) =>
          sql<{ categoryId: string }>`SELECT category_id AS "categoryId" FROM transactions WHERE id = ${transactionId}`
        for (const [slug, transactionId] of categorised) {
          assert.strictEqual((yield* categoryOf(transactionId))[0]!.categoryId, ids.get(slug), `${slug}'s transaction`)
        }
        assert.strictEqual((yield* categoryOf(onCustomFees))[0]!.categoryId, customFees)
        assert.strictEqual((yield* categoryOf(onCustomOther))[0]!.categoryId, customOther)

        const byIdOf = (list: ReadonlyArray<Category>) => list.toSorted((a, b) => a.id.localeCompare(b.id))
        assert.deepStrictEqual(byIdOf(yield* repo.list(twin)), byIdOf(twinBefore), "a team already there is unchanged")
      })
    )
  }
)
