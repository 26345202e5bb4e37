import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { fileKeyOf, jsonOf, pdfBytes, type RawAnswer, upload } from "../finance/documents/DocumentsSetup.ts"
import { assertInvalid, setUpKeyedTeam } from "../support/HttpScenarios.ts"
import { post } from "../support/WebhooksHarness.ts"
import { filesIn, storeDir, userFilesSuite, withServedApp } from "./UserFilesSetup.ts"

const dir = storeDir()
const text = (answer: RawAnswer) => new TextDecoder().decode(answer.bytes)
const pdf = (filename: string) => ["file", { filename, type: "application/pdf", content: pdfBytes(2000) }] as const

/** A multipart upload of one file part whose `Content-Type` header is `contentType`, byte for byte. */
const rawUpload = (client: Parameters<typeof upload>[0], token: string, contentType: string) =>
  client.rawCall("/documents", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=BOUNDARY" },
    body: [
      "--BOUNDARY",
      'Content-Disposition: form-data; name="file"; filename="notes.txt"',
      `Content-Type: ${contentType}`,
      "",
      "hello",
      "--BOUNDARY--",
      ""
    ].join("\r\n")
  })

userFilesSuite(dir)("uploads over HTTP on Postgres, files on disk", (it) => {
  it.effect(
    "a 253-character file name is the document's name and not its path; past 255 characters it is 400 naming file.filename and stores nothing",
    () =>
      withServedApp(dir, (client) =>
        Effect.promise(async () => {
          const team = await setUpKeyedTeam(client)
          const long = `${"a".repeat(249)}.pdf`
          const before = filesIn(dir)
          const created = await upload(client, team.owner, [pdf(long)])
          assert.strictEqual(created.status, 201, text(created))
          const document = jsonOf(created)
          assert.deepInclude(document, { name: long, title: long, path: `vault/${team.id}/documents/${document.id}` })
          const added = filesIn(dir).filter((f) => !before.includes(f))
          assert.isNotEmpty(added)
          assert.isTrue(
            added.every((f) => f.includes(document.id) && f.length < 200),
            added.join(", ")
          )
          const fk = await fileKeyOf(client, team.owner)
          const download = await client.rawCall(
            `/files/download/file?path=${encodeURIComponent(document.path)}&fk=${encodeURIComponent(fk)}`
          )
          assert.strictEqual(download.status, 200)
          assert.strictEqual(download.headers.get("content-disposition"), `attachment; filename="${long}"`)

          const stored = filesIn(dir)
          for (const name of [`${"b".repeat(252)}.pdf`, `${"é".repeat(300)}.pdf`]) {
            const refused = await upload(client, team.owner, [pdf(name)])
            assert.strictEqual(refused.status, 400, text(refused))
            assertInvalid({ ...refused, body: jsonOf(refused) }, "file.filename")
          }
          assert.deepStrictEqual(filesIn(dir), stored)
          const listed = await client.call("GET", "/documents", { token: team.owner })
          assert.deepStrictEqual(
            listed.body.data.map((d: { id: string }) => d.id),
            [document.id]
          )
        })
      )
  )

  it.effect("an upload whose row the database refuses after the bytes are written leaves no file in the store", () =>
    withServedApp(dir, (client) =>
      Effect.gen(function* () {
        // The suite's ports are built on a test database, whose client the suite's type does not name.
        const sql = yield* Effect.serviceOption(SqlClient.SqlClient).pipe(Effect.flatMap(Effect.fromOption))
        const team = yield* Effect.promise(() => setUpKeyedTeam(client))
        const before = filesIn(dir)
        const refuseInserts = Effect.andThen(
          sql.unsafe(`CREATE FUNCTION refuse_documents() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'injected: no document rows'; END $$`),
          sql.unsafe(`CREATE TRIGGER refuse_documents BEFORE INSERT ON documents
            FOR EACH ROW EXECUTE FUNCTION refuse_documents()`)
        )
        const allowInserts = Effect.andThen(
          sql.unsafe("DROP TRIGGER refuse_documents ON documents"),
          sql.unsafe("DROP FUNCTION refuse_documents()")
        ).pipe(Effect.orDie)
        const failed = yield* Effect.acquireUseRelease(
          refuseInserts,
          () => Effect.promise(() => upload(client, team.owner, [pdf("contract.pdf")])),
          () => allowInserts
        )
        assert.strictEqual(failed.status, 503, text(failed))
        assert.strictEqual(jsonOf(failed).error, "service_unavailable")
        assert.deepStrictEqual(filesIn(dir), before)
        const retried = yield* Effect.promise(() => upload(client, team.owner, [pdf("contract.pdf")]))
        assert.strictEqual(retried.status, 201, text(retried))
      })
    )
  )

  it.effect("a failing file store answers 503 file_store_unavailable, not a database outage, and stores nothing", () =>
    withServedApp(dir, (client) =>
      Effect.gen(function* () {
        const team = yield* Effect.promise(() => setUpKeyedTeam(client))
        const staging = join(dir, ".tmp")
        const breakStore = Effect.sync(() => {
          rmSync(staging, { recursive: true, force: true })
          writeFileSync(staging, "not a folder")
        })
        const repairStore = Effect.sync(() => rmSync(staging, { force: true }))
        const { failed, before } = yield* Effect.acquireUseRelease(
          breakStore,
          () =>
            Effect.promise(async () => {
              const before = filesIn(dir)
              const failed = await upload(client, team.owner, [pdf("statement.pdf")])
              assert.deepStrictEqual(filesIn(dir), before)
              return { failed, before }
            }),
          () => repairStore
        )
        assert.strictEqual(failed.status, 503, text(failed))
        assert.deepStrictEqual(jsonOf(failed), {
          error: "file_store_unavailable",
          code: 503,
          message: "the file store is unavailable; retry later"
        })
        assert.isNotEmpty(before)
        const retried = yield* Effect.promise(() => upload(client, team.owner, [pdf("statement.pdf")]))
        assert.strictEqual(retried.status, 201, text(retried))
      })
    )
  )

  it.effect(
    "a content type with CR/LF, control characters or no media-type syntax is refused with 400 where it enters",
    () =>
      withServedApp(dir, (client, app) =>
        Effect.gen(function* () {
          const team = yield* Effect.promise(() => setUpKeyedTeam(client))
          const before = filesIn(dir)
          const bad = [
            "text/html\r\nX-Injected: yes",
            "text/html\nX-Injected: yes",
            "text/plain\u0000",
            "text",
            "text/plain; charset",
            `application/${"x".repeat(300)}`
          ]
          for (const [index, contentType] of bad.entries()) {
            const mail = JSON.stringify({
              MessageID: `m-bad-${index}`,
              From: "billing@acme.example",
              To: `inbox+${team.id}@inbox.svc.test`,
              Attachments: [{ Name: "invoice.html", ContentType: contentType, Content: "PGgxPmhpPC9oMT4=" }]
            })
            const refused = yield* post(app, "/webhook/inbox", mail)
            assert.strictEqual(refused.status, 400, `${JSON.stringify(contentType)}: ${JSON.stringify(refused.body)}`)
            assert.deepInclude(
              refused.body.errors.map((e: { path: string }) => e.path),
              "Attachments.0.ContentType"
            )
          }

          const transaction = yield* Effect.promise(() =>
            client.call("POST", "/transactions", {
              token: team.owner,
              body: { name: "Hosting", date: "2026-03-01", amount: -20, currency: "USD" }
            })
          )
          const attach = (type: string) =>
            Effect.promise(() =>
              client.call("POST", `/transactions/${transaction.body.id}/attachments`, {
                token: team.owner,
                body: { path: [team.id, "invoice.pdf"], name: "invoice.pdf", size: 10, type }
              })
            )
          for (const type of bad) assertInvalid(yield* attach(type), "type")
          assert.strictEqual((yield* attach("text/plain; charset=utf-8")).status, 201)

          for (const contentType of ["application/pdf; charset", 'application/pdf; name="open', "application/pdf ;x"]) {
            const refused = yield* Effect.promise(() => rawUpload(client, team.owner, contentType))
            assert.strictEqual(refused.status, 400, `${JSON.stringify(contentType)}: ${text(refused)}`)
            assertInvalid({ ...refused, body: jsonOf(refused) }, "file")
          }
          const controlled = yield* Effect.promise(() => rawUpload(client, team.owner, "application/pdf; x=\u0001"))
          assert.strictEqual(controlled.status, 400, text(controlled))
          assert.deepStrictEqual(filesIn(dir), before)
        })
      )
  )
})
