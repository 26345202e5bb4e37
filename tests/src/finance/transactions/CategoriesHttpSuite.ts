import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import { STANDARD_CATEGORIES } from "@svc/domain"
import type { Layer } from "effect"
import { assertInvalid, type Client, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { assertNeedsScope, type FinanceTeam, financeTeam, scopedKey } from "../FinanceHttpSetup.ts"

const PATH = "/transactions/categories"

/** Every category of the team, page by page. */
const allCategories = async (app: Client, token: string) => {
  const out: Array<Record<string, unknown>> = []
  let cursor: string | null = null
  do {
    const page = await app.call("GET", `${PATH}?limit=100${cursor === null ? "" : `&cursor=${cursor}`}`, { token })
    assert.strictEqual(page.status, 200, JSON.stringify(page.body))
    out.push(...page.body.data)
    cursor = page.body.meta.cursor
  } while (cursor !== null)
  return out
}

const categoryBySlug = async (app: Client, team: FinanceTeam, slug: string) =>
  (await allCategories(app, team.owner)).find((c) => c.slug === slug) as Record<string, unknown> & { id: string }

/** The categories routes over HTTP, on the given ports. */
export const categoriesHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(
    `transaction categories over HTTP (${name})`,
    (it) => {
      it.effect("a new team lists the standard taxonomy; team-defined categories nest under it", () =>
        withAppOnPorts(async (app) => {
          const acme = await financeTeam(app)
          const listed = await allCategories(app, acme.owner)
          assert.strictEqual(listed.length, STANDARD_CATEGORIES.length)
          const revenue = listed.find((c) => c.slug === "revenue")!
          assert.deepInclude(
            listed.find((c) => c.slug === "subscription-revenue"),
            {
              parentId: revenue.id,
              type: "revenue",
              system: true,
              excluded: false,
              taxRate: null
            }
          )
          assert.isTrue(listed.find((c) => c.slug === "credit-card-payment")!.excluded as boolean)

          const created = await app.call("POST", PATH, {
            token: acme.owner,
            body: { name: "Café Licences", parentId: revenue.id, taxRate: 7.5, taxType: "vat" }
          })
          assert.strictEqual(created.status, 201, JSON.stringify(created.body))
          assert.deepInclude(created.body, {
            name: "Café Licences",
            slug: "cafe-licences",
            color: revenue.color,
            parentId: revenue.id,
            type: "revenue",
            taxRate: 7.5,
            taxType: "vat",
            excluded: false,
            system: false
          })
          const first = await app.call("GET", `${PATH}?limit=1`, { token: acme.owner })
          assert.strictEqual(first.body.data[0].id, created.body.id, "newest first")

          const updated = await app.call("PATCH", `${PATH}/${created.body.id}`, {
            token: acme.owner,
            body: { color: "#ABCDEF", taxRate: null, description: "Licences sold at the café" }
          })
          assert.strictEqual(updated.status, 200, JSON.stringify(updated.body))
          assert.deepInclude(updated.body, {
            color: "#ABCDEF",
            taxRate: null,
            description: "Licences sold at the café"
          })

          const deleted = await app.call("DELETE", `${PATH}/${created.body.id}`, { token: acme.owner })
          assert.strictEqual(deleted.status, 200)
          assert.strictEqual(deleted.body.id, created.body.id)
          assert.strictEqual(
            (await app.call("DELETE", `${PATH}/${created.body.id}`, { token: acme.owner })).status,
            404
          )
          assert.strictEqual((await allCategories(app, acme.owner)).length, STANDARD_CATEGORIES.length)
        })
      )

      it.effect(
        "slugs are unique per team (409), system categories keep slug, type and parent and are never deleted",
        () =>
          withAppOnPorts(async (app) => {
            const acme = await financeTeam(app)
            const other = await financeTeam(app)
            const studio = await app.call("POST", PATH, { token: acme.owner, body: { name: "Studio", slug: "studio" } })
            assert.strictEqual(studio.status, 201)
            const again = await app.call("POST", PATH, {
              token: acme.owner,
              body: { name: "Studio 2", slug: "studio" }
            })
            assert.strictEqual(again.status, 409)
            assert.strictEqual(again.body.error, "slug_taken")
            const system = await app.call("POST", PATH, { token: acme.owner, body: { name: "Rent" } })
            assert.strictEqual(system.status, 409, "the slug rent is the taxonomy's")
            assert.strictEqual(
              (await app.call("POST", PATH, { token: other.owner, body: { name: "Studio" } })).status,
              201,
              "another team may use the slug"
            )
            const renamedOnto = await app.call("PATCH", `${PATH}/${studio.body.id}`, {
              token: acme.owner,
              body: { slug: "rent" }
            })
            assert.strictEqual(renamedOnto.status, 409)

            const rent = await categoryBySlug(app, acme, "rent")
            const deleteRent = await app.call("DELETE", `${PATH}/${rent.id}`, { token: acme.owner })
            assert.strictEqual(deleteRent.status, 409)
            assert.strictEqual(deleteRent.body.error, "system_category")
            const reslug = await app.call("PATCH", `${PATH}/${rent.id}`, { token: acme.owner, body: { slug: "lease" } })
            assert.strictEqual(reslug.status, 409)
            assert.strictEqual(reslug.body.error, "system_category")
            const recolor = await app.call("PATCH", `${PATH}/${rent.id}`, {
              token: acme.owner,
              body: { name: "Office rent", color: "#111111", taxRate: 20 }
            })
            assert.strictEqual(recolor.status, 200, JSON.stringify(recolor.body))
            assert.deepInclude(recolor.body, {
              name: "Office rent",
              slug: "rent",
              color: "#111111",
              taxRate: 20,
              system: true
            })
          })
      )

      it.effect(
        "parents nest one level, within the team; other teams' and malformed ids are refused naming the field",
        () =>
          withAppOnPorts(async (app) => {
            const acme = await financeTeam(app)
            const other = await financeTeam(app)
            const rent = await categoryBySlug(app, acme, "rent")
            const otherRevenue = await categoryBySlug(app, other, "revenue")

            const grandchild = await app.call("POST", PATH, {
              token: acme.owner,
              body: { name: "Desk", parentId: rent.id }
            })
            assertInvalid(grandchild, "parentId")
            const crossTeam = await app.call("POST", PATH, {
              token: acme.owner,
              body: { name: "Sales", parentId: otherRevenue.id }
            })
            assert.strictEqual(crossTeam.status, 404)
            assert.match(crossTeam.body.message, /^parentId: /)
            assert.strictEqual(
              (await app.call("PATCH", `${PATH}/${otherRevenue.id}`, { token: acme.owner, body: { name: "x" } }))
                .status,
              404,
              "another team's category"
            )
            assert.strictEqual(
              (await app.call("DELETE", `${PATH}/${otherRevenue.id}`, { token: acme.owner })).status,
              404
            )

            const parent = await app.call("POST", PATH, { token: acme.owner, body: { name: "Studio" } })
            const child = await app.call("POST", PATH, {
              token: acme.owner,
              body: { name: "Studio rent", parentId: parent.body.id }
            })
            assert.strictEqual(child.status, 201)
            assertInvalid(
              await app.call("PATCH", `${PATH}/${parent.body.id}`, { token: acme.owner, body: { parentId: rent.id } }),
              "parentId"
            )
            assertInvalid(
              await app.call("PATCH", `${PATH}/${parent.body.id}`, {
                token: acme.owner,
                body: { parentId: parent.body.id }
              }),
              "parentId"
            )
            await app.call("DELETE", `${PATH}/${parent.body.id}`, { token: acme.owner })
            const orphan = (await allCategories(app, acme.owner)).find((c) => c.id === child.body.id)!
            assert.isNull(orphan.parentId, "a deleted parent's children become top-level")

            assertInvalid(await app.call("PATCH", `${PATH}/not-a-uuid`, { token: acme.owner, body: {} }), "params.id")
            assertInvalid(await app.call("POST", PATH, { token: acme.owner, body: { name: "" } }), "name")
            assertInvalid(
              await app.call("POST", PATH, { token: acme.owner, body: { name: "X", color: "red" } }),
              "color"
            )
            assertInvalid(
              await app.call("POST", PATH, { token: acme.owner, body: { name: "X", taxRate: 101 } }),
              "taxRate"
            )
            assertInvalid(
              await app.call("POST", PATH, { token: acme.owner, body: { name: "X", slug: "Not A Slug" } }),
              "slug"
            )
            assertInvalid(
              await app.call("POST", PATH, { token: acme.owner, body: { name: "X", type: "income" } }),
              "type"
            )
            assertInvalid(
              await app.call("POST", PATH, { token: acme.owner, body: { name: "X", parentId: "x" } }),
              "parentId"
            )
          })
      )

      it.effect("API keys and OAuth need transactions.read to list and transactions.write to change", () =>
        withAppOnPorts(async (app) => {
          const acme = await financeTeam(app)
          const reader = await scopedKey(app, acme, ["transactions.read"])
          const tagsOnly = await scopedKey(app, acme, ["tags.read"])
          assert.strictEqual((await app.call("GET", PATH, { token: reader })).status, 200)
          assertNeedsScope(await app.call("GET", PATH, { token: tagsOnly }), "transactions.read")
          assertNeedsScope(await app.call("POST", PATH, { token: reader, body: { name: "X" } }), "transactions.write")
          const writer = await scopedKey(app, acme, ["transactions.write"])
          assert.strictEqual((await app.call("POST", PATH, { token: writer, body: { name: "X" } })).status, 201)
          assert.strictEqual((await app.call("GET", PATH)).status, 401)
        })
      )
    }
  )
