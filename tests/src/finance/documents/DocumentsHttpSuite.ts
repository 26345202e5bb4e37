import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { Layer } from "effect"
import { setUpKeyedTeam, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { testConfig } from "../../support/InProcessApp.ts"
import { fileKeyOf, jsonOf, pdfBytes, upload } from "./DocumentsSetup.ts"

const LIMIT = 64 * 1024
const config = { ...testConfig, maxFileBytes: LIMIT }

/** The document routes over HTTP on whichever ports the caller provides (files in memory, a 64 KiB file limit). */
export const documentsHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`documents over HTTP (${name})`, (it) => {
    it.effect("upload, list with a cursor, read, download byte for byte through its path, delete (file too)", () =>
      withAppOnPorts(async (app) => {
        const acme = await setUpKeyedTeam(app)
        const token = acme.owner
        const content = pdfBytes(LIMIT)
        const created = await upload(app, token, [
          ["title", "Lease agreement"],
          ["file", { filename: "lease 2026.pdf", type: "application/pdf", content }]
        ])
        assert.strictEqual(created.status, 201, new TextDecoder().decode(created.bytes))
        const document = jsonOf(created)
        assert.deepStrictEqual(document, {
          object: "document",
          id: document.id,
          title: "Lease agreement",
          name: "lease 2026.pdf",
          contentType: "application/pdf",
          size: LIMIT,
          path: `vault/${acme.id}/documents/${document.id}`,
          createdAt: document.createdAt
        })
        const second = jsonOf(
          await upload(app, token, [
            [
              "file",
              { filename: "notes.txt", type: "text/plain; charset=utf-8", content: new TextEncoder().encode("hi") }
            ]
          ])
        )
        assert.deepInclude(second, { title: "notes.txt", contentType: "text/plain", size: 2 })

        const page = await app.call("GET", "/documents?limit=1", { token })
        assert.deepStrictEqual(
          page.body.data.map((d: { id: string }) => d.id),
          [second.id]
        )
        const rest = await app.call("GET", `/documents?limit=1&cursor=${page.body.meta.cursor}`, { token })
        assert.deepStrictEqual(rest.body.data, [document])
        assert.deepStrictEqual((await app.call("GET", `/documents/${document.id}`, { token })).body, document)

        const fk = await fileKeyOf(app, token)
        const download = await app.rawCall(
          `/files/download/file?path=${encodeURIComponent(document.path)}&fk=${encodeURIComponent(fk)}`
        )
        assert.strictEqual(download.status, 200)
        assert.strictEqual(download.headers.get("content-type"), "application/pdf")
        assert.strictEqual(download.headers.get("content-disposition"), 'attachment; filename="lease 2026.pdf"')
        assert.deepStrictEqual(download.bytes, content)

        const deleted = await app.call("DELETE", `/documents/${document.id}`, { token })
        assert.deepStrictEqual(deleted.body, { id: document.id, object: "document", deleted: true })
        assert.strictEqual((await app.call("GET", `/documents/${document.id}`, { token })).status, 404)
        assert.strictEqual((await app.call("DELETE", `/documents/${document.id}`, { token })).status, 404)
        const gone = await app.rawCall(
          `/files/download/file?path=${encodeURIComponent(document.path)}&fk=${encodeURIComponent(fk)}`
        )
        assert.strictEqual(gone.status, 404)
      }, config)
    )

    it.effect(
      "oversize is 413 and stores nothing; a missing file part or a bad content type is 400 naming the field",
      () =>
        withAppOnPorts(async (app) => {
          const acme = await setUpKeyedTeam(app)
          const token = acme.owner
          const over = await upload(app, token, [
            ["file", { filename: "big.pdf", type: "application/pdf", content: pdfBytes(LIMIT + 1) }]
          ])
          assert.strictEqual(over.status, 413)
          assert.strictEqual(jsonOf(over).error, "payload_too_large")
          const refusals: ReadonlyArray<[Parameters<typeof upload>[2], string]> = [
            [[["title", "no file"]], "file"],
            [[["file", { filename: "x.exe", type: "application/x-msdownload", content: pdfBytes(10) }]], "file"],
            [[["file", { filename: "x.bin", type: "", content: pdfBytes(10) }]], "file"],
            [[["file", "not a file part"]], "file"],
            [
              [
                ["title", ""],
                ["file", { filename: "a.pdf", type: "application/pdf", content: pdfBytes(10) }]
              ],
              "title"
            ],
            [[["colour", "red"]], "colour"],
            [
              [
                ["file", { filename: "a.pdf", type: "application/pdf", content: pdfBytes(10) }],
                ["title", "too late"]
              ],
              "title"
            ]
          ]
          for (const [parts, field] of refusals) {
            const answer = await upload(app, token, parts)
            const body = jsonOf(answer)
            assert.strictEqual(answer.status, 400, JSON.stringify(body))
            assert.isTrue(
              body.details.some((d: { path: string }) => d.path === field),
              `${field} in ${JSON.stringify(body)}`
            )
          }
          assert.deepStrictEqual((await app.call("GET", "/documents", { token })).body.data, [])
        }, config)
    )

    it.effect("another team's document is 404; scopes hold", () =>
      withAppOnPorts(async (app) => {
        const acme = await setUpKeyedTeam(app)
        const globex = await setUpKeyedTeam(app)
        const theirs = jsonOf(
          await upload(app, globex.owner, [
            ["file", { filename: "theirs.pdf", type: "application/pdf", content: pdfBytes(100) }]
          ])
        )
        for (const method of ["GET", "DELETE"] as const) {
          const answer = await app.call(method, `/documents/${theirs.id}`, { token: acme.owner })
          assert.strictEqual(answer.status, 404)
        }
        assert.deepStrictEqual((await app.call("GET", "/documents", { token: acme.owner })).body.data, [])
        const reader = await app.call("POST", "/api-keys", {
          token: acme.owner,
          body: { name: "reader", scopes: ["documents.read"] }
        })
        assert.strictEqual((await app.call("GET", "/documents", { token: reader.body.secret })).status, 200)
        const refused = await upload(app, reader.body.secret, [
          ["file", { filename: "a.pdf", type: "application/pdf", content: pdfBytes(10) }]
        ])
        assert.strictEqual(refused.status, 403)
        assert.strictEqual(jsonOf(refused).error, "insufficient_scope")
        assert.strictEqual((await app.call("GET", "/documents")).status, 401)
      }, config)
    )
  })
