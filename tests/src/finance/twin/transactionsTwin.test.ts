import { assert } from "@effect/vitest"
import { assertInvalid, type Client, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { type FinanceTeam, financeTeam } from "../FinanceHttpSetup.ts"
import { twinSuite } from "./TwinSuite.ts"

/** A bank account as the twin's client opens one, with its `manual: true`. */
const account = async (app: Client, team: FinanceTeam, name: string) => {
  const opened = await app.call("POST", "/bank-accounts", {
    token: team.owner,
    body: { name, currency: "USD", manual: true }
  })
  assert.strictEqual(opened.status, 201, JSON.stringify(opened.body))
  return opened.body.id as string
}

/** A transaction created with the twin's body (no fields of this service's own). */
const transaction = async (app: Client, team: FinanceTeam, body: Record<string, unknown>) => {
  const created = await app.call("POST", "/transactions", {
    token: team.owner,
    body: { name: "Coffee", amount: -4.5, currency: "USD", date: "2026-03-01", ...body }
  })
  assert.strictEqual(created.status, 201, JSON.stringify(created.body))
  return created.body.id as string
}

const ids = (answer: { body: { data: ReadonlyArray<{ id: string }> } }) => answer.body.data.map((t) => t.id)

twinSuite("transactions", (it) => {
  it.effect("the twin's create, list (pageSize, start/end, accounts, sort pair), read and bulk delete", () =>
    withAppOnPorts(async (app) => {
      const acme = await financeTeam(app)
      const checking = await account(app, acme, "Checking")
      const savings = await account(app, acme, "Savings")
      const early = await transaction(app, acme, {
        bankAccountId: checking,
        categorySlug: "travel",
        note: "taxi",
        internal: false,
        date: "2026-03-01"
      })
      const middle = await transaction(app, acme, { bankAccountId: savings, amount: -20, date: "2026-03-10" })
      const late = await transaction(app, acme, { amount: -1, date: "2026-03-20" })

      const firstPage = await app.call("GET", "/transactions?pageSize=2", { token: acme.owner })
      assert.strictEqual(firstPage.status, 200, JSON.stringify(firstPage.body))
      assert.deepStrictEqual(ids(firstPage), [late, middle])
      assert.isTrue(firstPage.body.meta.hasNextPage)
      const rest = await app.call(
        "GET",
        `/transactions?pageSize=2&cursor=${encodeURIComponent(firstPage.body.meta.cursor)}`,
        { token: acme.owner }
      )
      assert.deepStrictEqual(ids(rest), [early])
      assert.deepStrictEqual(ids(await app.call("GET", "/transactions?limit=1", { token: acme.owner })), [late])
      assertInvalid(await app.call("GET", "/transactions?pageSize=0", { token: acme.owner }), "query.pageSize")
      assert.deepStrictEqual(
        ids(await app.call("GET", "/transactions?limit=1&pageSize=2", { token: acme.owner })),
        [late],
        "limit wins over pageSize"
      )
      for (const [field, value] of [
        ["assignedId", "5b6f7f0e-8f5a-4c49-9d3c-7f4b6f3c2a11"],
        ["attachments", []]
      ] as const) {
        assertInvalid(
          await app.call("POST", "/transactions", {
            token: acme.owner,
            body: { name: "X", amount: -1, currency: "USD", date: "2026-03-01", [field]: value }
          }),
          field
        )
      }

      const window = await app.call(
        "GET",
        "/transactions?start=2026-03-05T00:00:00.000Z&end=2026-03-15T23:59:59.999Z",
        { token: acme.owner }
      )
      assert.strictEqual(window.status, 200, JSON.stringify(window.body))
      assert.deepStrictEqual(ids(window), [middle])

      const repeated = await app.call("GET", `/transactions?accounts=${checking}&accounts=${savings}`, {
        token: acme.owner
      })
      assert.strictEqual(repeated.status, 200, JSON.stringify(repeated.body))
      assert.deepStrictEqual(ids(repeated), [middle, early])
      assert.deepStrictEqual(ids(await app.call("GET", `/transactions?accounts=${savings}`, { token: acme.owner })), [
        middle
      ])

      const byAmount = await app.call("GET", "/transactions?sort=amount&sort=asc", { token: acme.owner })
      assert.strictEqual(byAmount.status, 200, JSON.stringify(byAmount.body))
      assert.deepStrictEqual(ids(byAmount), [middle, early, late])
      assert.strictEqual(
        (await app.call("GET", "/transactions?sort=name&sort=asc", { token: acme.owner })).status,
        400,
        "a column this service does not sort by"
      )

      const read = await app.call("GET", `/transactions/${early}`, { token: acme.owner })
      assert.strictEqual(read.status, 200)
      assert.strictEqual(read.body.note, "taxi")
      assert.strictEqual(read.body.category.slug, "travel")

      const deleted = await app.call("DELETE", "/transactions/bulk", { token: acme.owner, body: [early, late] })
      assert.strictEqual(deleted.status, 200, JSON.stringify(deleted.body))
      assert.deepStrictEqual(ids(await app.call("GET", "/transactions", { token: acme.owner })), [middle])
    })
  )

  it.effect("the twin's bulk update {ids, ...changes, tagId}: the same changes and tag for each, all or none", () =>
    withAppOnPorts(async (app) => {
      const acme = await financeTeam(app)
      const other = await financeTeam(app)
      const tag = async (team: FinanceTeam, name: string) =>
        (await app.call("POST", "/tags", { token: team.owner, body: { name } })).body.id as string
      const kept = await tag(acme, "kept")
      const added = await tag(acme, "added")
      const a = await transaction(app, acme, { name: "a", tagIds: [kept] })
      const b = await transaction(app, acme, { name: "b", categorySlug: "software" })
      const c = await transaction(app, acme, { name: "c" })
      const theirs = await transaction(app, other, { name: "theirs" })
      const state = async () =>
        (await app.call("GET", "/transactions", { token: acme.owner })).body.data.map(
          (t: {
            name: string
            status: string
            category: { slug: string } | null
            tags: ReadonlyArray<{ id: string }>
          }) => [t.name, t.status, t.category?.slug ?? null, t.tags.map((x) => x.id).toSorted()]
        )
      const before = await state()

      assertInvalid(
        await app.call("PATCH", "/transactions/bulk", {
          token: acme.owner,
          body: { ids: [a, "nope"], status: "archived" }
        }),
        "ids.1"
      )
      assertInvalid(
        await app.call("PATCH", "/transactions/bulk", { token: acme.owner, body: { ids: [], status: "archived" } }),
        "ids"
      )
      const tooMany = Array.from({ length: 101 }, () => crypto.randomUUID())
      assertInvalid(await app.call("PATCH", "/transactions/bulk", { token: acme.owner, body: { ids: tooMany } }), "ids")
      assertInvalid(
        await app.call("PATCH", "/transactions/bulk", { token: acme.owner, body: { ids: [a], status: "lost" } }),
        "status"
      )
      assertInvalid(
        await app.call("PATCH", "/transactions/bulk", {
          token: acme.owner,
          body: { ids: [a], assignedId: crypto.randomUUID() }
        }),
        "assignedId"
      )
      assertInvalid(
        await app.call("PATCH", "/transactions/bulk", { token: acme.owner, body: { ids: [a, b, a], note: "x" } }),
        "ids.2"
      )
      for (const [body, field] of [
        [{ ids: [a, crypto.randomUUID()], status: "archived" }, "ids.1"],
        [{ ids: [a, theirs], status: "archived" }, "ids.1"],
        [{ ids: [a, b], tagId: crypto.randomUUID() }, "tagId"],
        [{ ids: [a, b], categorySlug: "no-such-category" }, "categorySlug"]
      ] as const) {
        const refused = await app.call("PATCH", "/transactions/bulk", { token: acme.owner, body })
        assert.strictEqual(refused.status, 404, JSON.stringify(refused.body))
        assert.include(refused.body.message, `${field}:`)
      }
      assert.deepStrictEqual(await state(), before, "nothing changed")
      const theirsNow = await app.call("GET", `/transactions/${theirs}`, { token: other.owner })
      assert.strictEqual(theirsNow.body.status, "posted", "another team's transaction is untouched")

      const updated = await app.call("PATCH", "/transactions/bulk", {
        token: acme.owner,
        body: { ids: [a, b], status: "archived", categorySlug: "travel", note: "trip", tagId: added }
      })
      assert.strictEqual(updated.status, 200, JSON.stringify(updated.body))
      assert.deepStrictEqual(
        updated.body.data.map((t: { id: string }) => t.id),
        [a, b]
      )
      assert.deepStrictEqual(await state(), [
        ["c", "posted", null, []],
        ["b", "archived", "travel", [added]],
        ["a", "archived", "travel", [kept, added].toSorted()]
      ])
      const again = await app.call("PATCH", "/transactions/bulk", {
        token: acme.owner,
        body: { ids: [a], categorySlug: null, tagId: added }
      })
      assert.strictEqual(again.status, 200, JSON.stringify(again.body))
      assert.strictEqual(again.body.data[0].category, null, "categorySlug null clears the category")
      assert.deepStrictEqual(
        again.body.data[0].tags.map((x: { id: string }) => x.id).toSorted(),
        [kept, added].toSorted(),
        "a tag already there is not added twice"
      )
      const arrayForm = await app.call("PATCH", "/transactions/bulk", {
        token: acme.owner,
        body: [{ id: c, status: "completed" }]
      })
      assert.strictEqual(arrayForm.status, 200, JSON.stringify(arrayForm.body))
      assert.strictEqual(arrayForm.body.data[0].status, "completed", "the array form still works")
    })
  )

  it.effect("the twin's category slugs name the standard categories: assigning, filtering and listing", () =>
    withAppOnPorts(async (app) => {
      const acme = await financeTeam(app)
      const listed = await app.call("GET", "/transactions/categories?pageSize=100", { token: acme.owner })
      assert.strictEqual(listed.status, 200, JSON.stringify(listed.body))
      type Listed = {
        id: string
        slug: string
        name: string
        color: string
        parentId: string | null
        excluded: boolean
      }
      const bySlug = new Map<string, Listed>(listed.body.data.map((c: Listed) => [c.slug, c]))
      const parentOf = (slug: string) => {
        const parentId = bySlug.get(slug)?.parentId
        return [...bySlug.values()].find((c) => c.id === parentId)?.slug ?? null
      }
      for (const [slug, name, color, parent] of [
        ["sales-marketing", "Sales & Marketing", "#0693E3", null],
        ["internet-and-telephone", "Internet & Telephone", "#39CCCC", "operations"],
        ["professional-services-fees", "Professional Services Fees", "#9900EF", "professional-services"],
        ["credit-card-payment", "Credit Card Payment", "#00A9FE", "banking-finance"],
        ["vat-gst-pst-qst-payments", "VAT/GST/PST/QST Payments", "#DC2626", "taxes"],
        ["internal-transfer", "Internal Transfer", "#6B7280", "system"]
      ] as const) {
        assert.deepInclude(bySlug.get(slug), { name, color }, slug)
        assert.strictEqual(parentOf(slug), parent, `${slug}'s parent`)
      }
      assert.isTrue(bySlug.get("credit-card-payment")!.excluded)
      assert.isTrue(bySlug.get("internal-transfer")!.excluded)

      const phone = await transaction(app, acme, { name: "Phone bill", categorySlug: "internet-and-telephone" })
      const card = await transaction(app, acme, { name: "Card repayment" })
      await transaction(app, acme, { name: "Lunch", categorySlug: "meals" })
      const assigned = await app.call("PATCH", "/transactions/bulk", {
        token: acme.owner,
        body: { ids: [card], categorySlug: "credit-card-payment" }
      })
      assert.strictEqual(assigned.status, 200, JSON.stringify(assigned.body))
      assert.strictEqual(assigned.body.data[0].category.slug, "credit-card-payment")
      const patched = await app.call("PATCH", `/transactions/${phone}`, {
        token: acme.owner,
        body: { categorySlug: "processor-fees" }
      })
      assert.strictEqual(patched.body.category.slug, "processor-fees")
      assert.deepStrictEqual(
        ids(
          await app.call("GET", "/transactions?categories=processor-fees,credit-card-payment", { token: acme.owner })
        ).toSorted(),
        [phone, card].toSorted()
      )
      for (const firstSlug of ["internet-and-phone", "credit-card-payments", "taxes-government"]) {
        const refused = await app.call("PATCH", `/transactions/${phone}`, {
          token: acme.owner,
          body: { categorySlug: firstSlug }
        })
        assert.strictEqual(refused.status, 404, `${firstSlug} is no standard slug`)
        assert.include(refused.body.message, "categorySlug:")
      }
    })
  )

  it.effect("transaction categories are read one at a time by id", () =>
    withAppOnPorts(async (app) => {
      const acme = await financeTeam(app)
      const other = await financeTeam(app)
      const created = await app.call("POST", "/transactions/categories", {
        token: acme.owner,
        body: { name: "Client dinners" }
      })
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      const read = await app.call("GET", `/transactions/categories/${created.body.id}`, { token: acme.owner })
      assert.strictEqual(read.status, 200, JSON.stringify(read.body))
      assert.deepStrictEqual(read.body, created.body)
      assert.strictEqual(
        (await app.call("GET", `/transactions/categories/${created.body.id}`, { token: other.owner })).status,
        404
      )
      const listed = await app.call("GET", "/transactions/categories?pageSize=1", { token: acme.owner })
      assert.strictEqual(listed.body.data.length, 1)
      assert.isTrue(listed.body.meta.hasNextPage)
    })
  )
})
