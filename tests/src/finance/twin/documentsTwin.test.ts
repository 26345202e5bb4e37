import { assert } from "@effect/vitest"
import { assertInvalid, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { jsonOf, pdfBytes, upload } from "../documents/DocumentsSetup.ts"
import { financeTeam } from "../FinanceHttpSetup.ts"
import { twinSuite } from "./TwinSuite.ts"

twinSuite("documents", (it) => {
  it.effect("the twin's list with pageSize and cursor, read by id and delete", () =>
    withAppOnPorts(async (app) => {
      const acme = await financeTeam(app)
      const ids: Array<string> = []
      for (const name of ["a.pdf", "b.pdf", "c.pdf"]) {
        const stored = await upload(app, acme.owner, [
          ["file", { filename: name, type: "application/pdf", content: pdfBytes(64) }]
        ])
        assert.strictEqual(stored.status, 201, new TextDecoder().decode(stored.bytes))
        ids.push(jsonOf(stored).id)
      }
      const first = await app.call("GET", "/documents?pageSize=2", { token: acme.owner })
      assert.strictEqual(first.status, 200, JSON.stringify(first.body))
      assert.strictEqual(first.body.data.length, 2)
      assert.isTrue(first.body.meta.hasNextPage)
      const rest = await app.call("GET", `/documents?pageSize=2&cursor=${encodeURIComponent(first.body.meta.cursor)}`, {
        token: acme.owner
      })
      assert.strictEqual(rest.body.data.length, 1)
      assert.sameMembers(
        [...first.body.data, ...rest.body.data].map((d: { id: string }) => d.id),
        ids
      )
      assertInvalid(await app.call("GET", "/documents?pageSize=101", { token: acme.owner }), "query.pageSize")

      const presigned = await app.call("POST", `/documents/${ids[0]}/presigned-url?download=true`, {
        token: acme.owner
      })
      assert.strictEqual(presigned.status, 200, JSON.stringify(presigned.body))
      assert.deepStrictEqual(Object.keys(presigned.body).toSorted(), ["expiresAt", "fileName", "url"])
      assert.strictEqual(presigned.body.fileName, "a.pdf")
      assert.strictEqual(new URL(presigned.body.url).pathname, "/files/presigned")
      const read = await app.call("GET", `/documents/${ids[0]}`, { token: acme.owner })
      assert.strictEqual(read.status, 200)
      assert.strictEqual(read.body.name, "a.pdf")
      assert.strictEqual((await app.call("DELETE", `/documents/${ids[0]}`, { token: acme.owner })).status, 200)
      assert.strictEqual((await app.call("GET", `/documents/${ids[0]}`, { token: acme.owner })).status, 404)
    })
  )
})
