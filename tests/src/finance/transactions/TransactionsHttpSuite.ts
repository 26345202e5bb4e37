import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { Layer } from "effect"
import { assertInvalid, type Client, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { assertNeedsScope, type FinanceTeam, financeTeam, scopedKey } from "../FinanceHttpSetup.ts"

/** SPEC.md's Transaction fields, every one required in a response. */
export const SPEC_TRANSACTION_FIELDS = [
  "id",
  "name",
  "amount",
  "taxAmount",
  "taxRate",
  "taxType",
  "currency",
  "counterpartyName",
  "date",
  "category",
  "status",
  "internal",
  "recurring",
  "manual",
  "frequency",
  "isFulfilled",
  "note",
  "account",
  "tags",
  "attachments"
] as const

const assert404Naming = (answer: { status: number; body: { error: string; message: string } }, field: string) => {
  assert.strictEqual(answer.status, 404, JSON.stringify(answer.body))
  assert.strictEqual(answer.body.error, "not_found")
  assert.include(answer.body.message, `${field}:`)
}

/** Creates a transaction through the API and answers its body. */
export const postTransaction = async (app: Client, team: FinanceTeam, body: Record<string, unknown>) => {
  const created = await app.call("POST", "/transactions", {
    token: team.owner,
    body: { name: "Coffee", date: "2026-03-01", amount: -4.5, currency: "USD", ...body }
  })
  assert.strictEqual(created.status, 201, JSON.stringify(created.body))
  return created.body
}

const names = (body: { data: ReadonlyArray<{ name: string }> }) => body.data.map((t) => t.name).toSorted()

/** The transactions routes over HTTP, on the given ports. */
export const transactionsHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`transactions over HTTP (${name})`, (it) => {
    it.effect("create, read, update and delete a transaction in SPEC.md's shape", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app)
        const tag = await app.call("POST", "/tags", { token: acme.owner, body: { name: "travel" } })
        const account = await app.call("POST", "/bank-accounts", {
          token: acme.owner,
          body: { name: "Operating", currency: "KWD" }
        })
        const created = await postTransaction(app, acme, {
          name: "Flight",
          amount: -1234.567,
          currency: "KWD",
          date: "2026-02-28T22:00:00Z",
          categorySlug: "travel",
          tagIds: [tag.body.id],
          bankAccountId: account.body.id,
          counterpartyName: "Airline",
          taxRate: 5
        })
        for (const field of SPEC_TRANSACTION_FIELDS) assert.property(created, field)
        assert.strictEqual(created.amount, -1234.567)
        assert.strictEqual(created.currency, "KWD")
        assert.strictEqual(created.taxAmount, -58.789, "1,234,567 × 5 / 105 = 58,788.9… fils")
        assert.strictEqual(created.date, "2026-02-28T00:00:00.000Z")
        assert.deepStrictEqual(Object.keys(created.category).toSorted(), [
          "color",
          "id",
          "name",
          "slug",
          "taxRate",
          "taxType"
        ])
        assert.strictEqual(created.category.slug, "travel")
        assert.deepStrictEqual(created.account, {
          id: account.body.id,
          name: "Operating",
          currency: "KWD",
          connection: null
        })
        assert.deepStrictEqual(created.tags, [{ id: tag.body.id, name: "travel" }])
        assert.deepStrictEqual(created.attachments, [])
        assert.strictEqual(created.manual, true)
        assert.strictEqual(created.isFulfilled, false)

        const read = await app.call("GET", `/transactions/${created.id}`, { token: acme.owner })
        assert.deepStrictEqual(read.body, created)

        const patched = await app.call("PATCH", `/transactions/${created.id}`, {
          token: acme.owner,
          body: { amount: 0.001, note: "refund", categoryId: null, tagIds: [] }
        })
        assert.strictEqual(patched.status, 200, JSON.stringify(patched.body))
        assert.strictEqual(patched.body.amount, 0.001)
        assert.strictEqual(patched.body.note, "refund")
        assert.isNull(patched.body.category)
        assert.deepStrictEqual(patched.body.tags, [])

        const other = await financeTeam(app)
        assert.strictEqual(
          (await app.call("GET", `/transactions/${created.id}`, { token: other.owner })).status,
          404,
          "another team's transaction"
        )
        assert.strictEqual(
          (await app.call("DELETE", `/transactions/${created.id}`, { token: other.owner })).status,
          404
        )
        const deleted = await app.call("DELETE", `/transactions/${created.id}`, { token: acme.owner })
        assert.strictEqual(deleted.status, 200)
        assert.strictEqual(deleted.body.id, created.id)
        assert.strictEqual((await app.call("GET", `/transactions/${created.id}`, { token: acme.owner })).status, 404)
      })
    )

    it.effect("bad input is a 4xx naming the field; nothing is written", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app)
        const other = await financeTeam(app)
        const theirTag = await app.call("POST", "/tags", { token: other.owner, body: { name: "theirs" } })
        const theirAccount = await app.call("POST", "/bank-accounts", {
          token: other.owner,
          body: { name: "Theirs", currency: "USD" }
        })
        const post = (body: Record<string, unknown>) =>
          app.call("POST", "/transactions", {
            token: acme.owner,
            body: { name: "X", date: "2026-03-01", amount: -1, currency: "USD", ...body }
          })
        assertInvalid(await post({ amount: 1.005 }), "amount")
        assertInvalid(await post({ amount: 1.5, currency: "JPY" }), "amount")
        assertInvalid(await post({ currency: "XYZ" }), "currency")
        assertInvalid(await post({ date: "2026-02-30" }), "date")
        assertInvalid(await post({ name: "" }), "name")
        assertInvalid(await post({ categoryId: "nope" }), "categoryId")
        assertInvalid(await post({ status: "lost" }), "status")
        assertInvalid(await post({ baseAmount: 2 }), "baseCurrency")
        assert404Naming(await post({ categoryId: crypto.randomUUID() }), "categoryId")
        assert404Naming(await post({ tagIds: [theirTag.body.id] }), "tagIds.0")
        assert404Naming(await post({ bankAccountId: theirAccount.body.id }), "bankAccountId")
        assert404Naming(await post({ categorySlug: "nope" }), "categorySlug")
        assertInvalid(await app.call("GET", "/transactions/123", { token: acme.owner }), "params.id")
        const listed = await app.call("GET", "/transactions", { token: acme.owner })
        assert.deepStrictEqual(listed.body.data, [], "nothing written")

        const list = (query: string) => app.call("GET", `/transactions?${query}`, { token: acme.owner })
        assertInvalid(await list("from=2026-03-02&to=2026-03-01"), "query.from")
        assertInvalid(await list("from=yesterday"), "query.from")
        assertInvalid(await list("amountMin=1.001&currency=USD"), "query.amountMin")
        assertInvalid(await list("amountMin=1"), "query.currency")
        assertInvalid(await list("amountMin=ten&currency=USD"), "query.amountMin")
        assertInvalid(await list("statuses=posted,lost"), "query.statuses.1")
        assertInvalid(await list("sort=name"), "query.sort")
        assertInvalid(await list("cursor=forged"), "query.cursor", "invalid_cursor")
        assertInvalid(await list(`tags=${theirTag.body.id},x`), "query.tags.1")
        assert404Naming(await list(`tags=${theirTag.body.id}`), "query.tags.0")
        assert404Naming(await list("categories=nope"), "query.categories.0")
      })
    )

    it.effect("list: filters from the query string, cursor pages in the order asked", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app)
        const tag = await app.call("POST", "/tags", { token: acme.owner, body: { name: "client" } })
        const bulk = await app.call("POST", "/transactions/bulk", {
          token: acme.owner,
          body: [
            { name: "Invoice 7", date: "2026-01-05", amount: 1500, currency: "USD", categorySlug: "revenue" },
            { name: "Rent", date: "2026-01-31", amount: -2000, currency: "USD", recurring: true, frequency: "monthly" },
            { name: "Taxi ride", date: "2026-02-03", amount: -23.4, currency: "USD", tagIds: [tag.body.id] },
            { name: "Tokyo dinner", date: "2026-02-04", amount: -8000, currency: "JPY", status: "pending" },
            { name: "Refund", date: "2026-02-10", amount: 23.4, currency: "USD", counterpartyName: "Taxi Co" }
          ]
        })
        assert.strictEqual(bulk.status, 201, JSON.stringify(bulk.body))
        const taxi = bulk.body.data[2].id
        const attached = await app.call("POST", `/transactions/${taxi}/attachments`, {
          token: acme.owner,
          body: { path: [acme.id, "transactions", "taxi.pdf"], name: "taxi.pdf", size: 2048, type: "application/pdf" }
        })
        assert.strictEqual(attached.status, 201, JSON.stringify(attached.body))
        const list = async (query: string) => {
          const answer = await app.call("GET", `/transactions?${query}`, { token: acme.owner })
          assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
          return names(answer.body)
        }
        assert.deepStrictEqual(await list("from=2026-02-01&to=2026-02-04"), ["Taxi ride", "Tokyo dinner"])
        assert.deepStrictEqual(await list("q=taxi"), ["Refund", "Taxi ride"])
        assert.deepStrictEqual(await list("q=TOK%20din"), ["Tokyo dinner"])
        assert.deepStrictEqual(await list("categories=revenue"), ["Invoice 7"])
        assert.deepStrictEqual(await list("categories=uncategorized,revenue"), [
          "Invoice 7",
          "Refund",
          "Rent",
          "Taxi ride",
          "Tokyo dinner"
        ])
        assert.deepStrictEqual(await list(`tags=${tag.body.id}`), ["Taxi ride"])
        assert.deepStrictEqual(await list("type=income"), ["Invoice 7", "Refund"])
        assert.deepStrictEqual(await list("statuses=pending"), ["Tokyo dinner"])
        assert.deepStrictEqual(await list("amountMin=23.40&amountMax=100&currency=USD"), ["Refund", "Taxi ride"])
        assert.deepStrictEqual(await list("currency=JPY"), ["Tokyo dinner"])
        assert.deepStrictEqual(await list("attachments=true"), ["Taxi ride"])
        assert.deepStrictEqual(await list("recurring=true&frequencies=monthly"), ["Rent"])

        const pages: Array<string> = []
        let cursor: string | null = null
        do {
          const query: string = `sort=amount&direction=asc&limit=2${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
          const page = await app.call("GET", `/transactions?${query}`, { token: acme.owner })
          assert.strictEqual(page.status, 200, JSON.stringify(page.body))
          assert.strictEqual(page.body.meta.hasPreviousPage, cursor !== null)
          pages.push(...page.body.data.map((t: { name: string }) => t.name))
          cursor = page.body.meta.cursor
        } while (cursor !== null)
        // by amount in minor units: -200,000 (USD cents) before -8,000 (yen)
        assert.deepStrictEqual(pages, ["Rent", "Tokyo dinner", "Taxi ride", "Refund", "Invoice 7"])

        const first = await app.call("GET", "/transactions?limit=2", { token: acme.owner })
        assert.deepStrictEqual(
          first.body.data.map((t: { name: string }) => t.name),
          ["Refund", "Tokyo dinner"],
          "newest first by default"
        )
        assertInvalid(
          await app.call("GET", `/transactions?sort=amount&cursor=${encodeURIComponent(first.body.meta.cursor)}`, {
            token: acme.owner
          }),
          "query.cursor",
          "invalid_cursor"
        )
        const other = await financeTeam(app)
        assertInvalid(
          await app.call("GET", `/transactions?cursor=${encodeURIComponent(first.body.meta.cursor)}`, {
            token: other.owner
          }),
          "query.cursor",
          "invalid_cursor"
        )
        assert.deepStrictEqual((await app.call("GET", "/transactions", { token: other.owner })).body.data, [])
      })
    )

    it.effect("bulk create, update and delete are all or nothing, naming the item", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app)
        const item = (name: string, extra: Record<string, unknown> = {}) => ({
          name,
          date: "2026-03-01",
          amount: -1,
          currency: "EUR",
          ...extra
        })
        const bad = await app.call("POST", "/transactions/bulk", {
          token: acme.owner,
          body: [item("a"), item("b", { amount: 0.123 }), item("c")]
        })
        assertInvalid(bad, "1.amount")
        assertInvalid(
          await app.call("POST", "/transactions/bulk", { token: acme.owner, body: [item("a"), { name: "b" }] }),
          "1.date"
        )
        assert404Naming(
          await app.call("POST", "/transactions/bulk", {
            token: acme.owner,
            body: [item("a"), item("b", { categoryId: crypto.randomUUID() })]
          }),
          "1.categoryId"
        )
        assertInvalid(await app.call("POST", "/transactions/bulk", { token: acme.owner, body: [] }), "body")
        assert.deepStrictEqual((await app.call("GET", "/transactions", { token: acme.owner })).body.data, [])

        const created = await app.call("POST", "/transactions/bulk", {
          token: acme.owner,
          body: [item("a"), item("b")]
        })
        assert.strictEqual(created.status, 201)
        const [a, b] = created.body.data.map((t: { id: string }) => t.id)
        const badUpdate = await app.call("PATCH", "/transactions/bulk", {
          token: acme.owner,
          body: [
            { id: a, name: "A" },
            { id: b, amount: 0.001 }
          ]
        })
        assertInvalid(badUpdate, "1.amount")
        assert404Naming(
          await app.call("PATCH", "/transactions/bulk", {
            token: acme.owner,
            body: [
              { id: a, name: "A" },
              { id: crypto.randomUUID(), name: "B" }
            ]
          }),
          "1.id"
        )
        assert.deepStrictEqual(
          names((await app.call("GET", "/transactions", { token: acme.owner })).body),
          ["a", "b"],
          "nothing updated"
        )
        const updated = await app.call("PATCH", "/transactions/bulk", {
          token: acme.owner,
          body: [
            { id: a, name: "A" },
            { id: b, status: "completed" }
          ]
        })
        assert.strictEqual(updated.status, 200, JSON.stringify(updated.body))
        assert.deepStrictEqual(
          updated.body.data.map((t: { name: string; status: string }) => [t.name, t.status]),
          [
            ["A", "posted"],
            ["b", "completed"]
          ]
        )

        assert404Naming(
          await app.call("DELETE", "/transactions/bulk", { token: acme.owner, body: [a, crypto.randomUUID()] }),
          "1"
        )
        assert.strictEqual((await app.call("GET", "/transactions", { token: acme.owner })).body.data.length, 2)
        const deleted = await app.call("DELETE", "/transactions/bulk", { token: acme.owner, body: [a, b] })
        assert.strictEqual(deleted.status, 200, JSON.stringify(deleted.body))
        assert.deepStrictEqual(deleted.body.data.map((d: { id: string }) => d.id).toSorted(), [a, b].toSorted())
        assert.deepStrictEqual((await app.call("GET", "/transactions", { token: acme.owner })).body.data, [])
      })
    )

    it.effect("attachments: SPEC.md's CreateTransactionAttachment in, the attachment item out", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app)
        const other = await financeTeam(app)
        const created = await postTransaction(app, acme, {})
        const path = `/transactions/${created.id}/attachments`
        const file = { path: [acme.id, "receipts", "r.jpg"], name: "r.jpg", size: 5120, type: "image/jpeg" }
        const attached = await app.call("POST", path, { token: acme.owner, body: file })
        assert.strictEqual(attached.status, 201, JSON.stringify(attached.body))
        assert.deepStrictEqual(attached.body, {
          id: attached.body.id,
          path: file.path,
          size: 5120,
          type: "image/jpeg",
          filename: "r.jpg"
        })
        const read = await app.call("GET", `/transactions/${created.id}`, { token: acme.owner })
        assert.deepStrictEqual(read.body.attachments, [attached.body])
        assert.strictEqual(read.body.isFulfilled, true)
        assertInvalid(await app.call("POST", path, { token: acme.owner, body: { ...file, path: [] } }), "path")
        assertInvalid(
          await app.call("POST", path, { token: acme.owner, body: { ...file, path: [other.id, "r.jpg"] } }),
          "path.0"
        )
        assertInvalid(await app.call("POST", path, { token: acme.owner, body: { ...file, size: -1 } }), "size")
        assertInvalid(await app.call("POST", path, { token: acme.owner, body: { ...file, type: "jpeg" } }), "type")
        assert.strictEqual(
          (await app.call("POST", path, { token: other.owner, body: { ...file, path: [other.id, "r.jpg"] } })).status,
          404
        )
        assert.strictEqual(
          (await app.call("DELETE", `${path}/${attached.body.id}`, { token: other.owner })).status,
          404
        )
        const detached = await app.call("DELETE", `${path}/${attached.body.id}`, { token: acme.owner })
        assert.deepStrictEqual(detached.body, attached.body)
        assert.strictEqual((await app.call("DELETE", `${path}/${attached.body.id}`, { token: acme.owner })).status, 404)
        assert.deepStrictEqual(
          (await app.call("GET", `/transactions/${created.id}`, { token: acme.owner })).body.attachments,
          []
        )
      })
    )

    it.effect("API keys need transactions.read and transactions.write; sessions see everything of their team", () =>
      withAppOnPorts(async (app) => {
        const acme = await financeTeam(app)
        const created = await postTransaction(app, acme, {})
        const reader = await scopedKey(app, acme, ["transactions.read"])
        const writer = await scopedKey(app, acme, ["transactions.write"])
        const body = { name: "X", date: "2026-03-01", amount: 1, currency: "USD" }
        assert.strictEqual((await app.call("GET", "/transactions", { token: reader })).status, 200)
        assert.strictEqual((await app.call("GET", `/transactions/${created.id}`, { token: reader })).status, 200)
        assertNeedsScope(await app.call("GET", "/transactions", { token: writer }), "transactions.read")
        assertNeedsScope(await app.call("POST", "/transactions", { token: reader, body }), "transactions.write")
        assertNeedsScope(
          await app.call("PATCH", `/transactions/${created.id}`, { token: reader, body: { name: "Y" } }),
          "transactions.write"
        )
        assertNeedsScope(
          await app.call("DELETE", "/transactions/bulk", { token: reader, body: [created.id] }),
          "transactions.write"
        )
        assertNeedsScope(
          await app.call("POST", `/transactions/${created.id}/attachments`, {
            token: reader,
            body: { path: [acme.id, "a"], name: "a", size: 1, type: "text/plain" }
          }),
          "transactions.write"
        )
        assert.strictEqual((await app.call("POST", "/transactions", { token: writer, body })).status, 201)
        assert.strictEqual((await app.call("GET", "/transactions")).status, 401)
        const listed = await app.call("GET", "/transactions", { token: acme.owner })
        assert.strictEqual(listed.body.data.length, 2, "the session sees the key's transaction too")
      })
    )
  })
