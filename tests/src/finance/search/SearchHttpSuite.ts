import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import { type InboxItem, InboxItemsRepo, type TeamId } from "@svc/domain"
import { type Context, Effect, type Layer } from "effect"
import { assertInvalid, type Client, setUpKeyedTeam, withAppOnPorts } from "../../support/HttpScenarios.ts"
import { jsonOf, upload } from "../documents/DocumentsSetup.ts"
import { assertNeedsScope } from "../FinanceHttpSetup.ts"
import { createInvoice } from "../invoices/InvoicesSetup.ts"

const post = async (app: Client, token: string, path: string, body: Record<string, unknown>) => {
  const created = await app.call("POST", path, { token, body })
  assert.strictEqual(created.status, 201, JSON.stringify(created.body))
  return created.body
}

const transaction = (app: Client, token: string, body: Record<string, unknown>) =>
  post(app, token, "/transactions", { date: "2026-03-01", amount: -4.5, currency: "USD", ...body })

/** Uploads a document through the API and answers its body. */
const document = async (app: Client, token: string, title: string, filename: string, type: string) => {
  const created = await upload(app, token, [
    ["title", title],
    ["file", { filename, type, content: new TextEncoder().encode("content") }]
  ])
  assert.strictEqual(created.status, 201, new TextDecoder().decode(created.bytes))
  return jsonOf(created)
}

/** Stores a received e-mail as the inbox does (its own port; the inbound webhook is the inbox suite's). */
const receive = async (
  ports: Context.Context<Ports>,
  teamId: TeamId,
  mail: Pick<InboxItem, "subject" | "sender" | "textBody" | "createdAt"> & {
    readonly attachments?: ReadonlyArray<string>
  }
) => {
  const id = crypto.randomUUID()
  const item: InboxItem = {
    id,
    teamId,
    messageId: `m-${id}`,
    recipient: `inbox+${teamId}@inbox.svc.test`,
    htmlBody: "",
    displayName: null,
    status: "pending",
    transactionId: null,
    updatedAt: mail.createdAt,
    ...mail,
    attachments: (mail.attachments ?? []).map((filename) => ({
      filename,
      contentType: "application/pdf",
      size: 7,
      path: null,
      skipped: "not stored in this test"
    }))
  }
  const inserted = await Effect.runPromise(
    InboxItemsRepo.use((repo) => repo.insert(item)).pipe(Effect.provideContext(ports))
  )
  assert.isTrue(inserted)
  return item
}

type Hit = { type: string; id: string; title: string; rank: number }

const search = async (app: Client, token: string, query: string) => {
  const answer = await app.call("GET", `/search?${query}`, { token })
  assert.strictEqual(answer.status, 200, JSON.stringify(answer.body))
  const hits: ReadonlyArray<Hit> = answer.body.data
  for (const [i, hit] of hits.entries()) {
    if (i > 0) assert.isAtMost(hit.rank, hits[i - 1]?.rank ?? Number.POSITIVE_INFINITY, "best rank first")
  }
  return answer.body.data as ReadonlyArray<Hit & Record<string, unknown>>
}

/** GET /search over HTTP on whichever ports the caller provides. */
export const searchHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`search over HTTP (${name})`, (it) => {
    it.effect("ranks a title hit above a body hit, whole words above prefixes; types; limit; the result shape", () =>
      withAppOnPorts(async (app) => {
        const { owner: token } = await setUpKeyedTeam(app)
        const acmeCustomer = await post(app, token, "/customers", {
          name: "Acme Corporation",
          email: "billing@acme.example"
        })
        const globex = await post(app, token, "/customers", { name: "Globex", note: "a subsidiary of acme" })
        await post(app, token, "/customers", { name: "Initech" })
        const invoice = await transaction(app, token, {
          name: "Invoice 42",
          counterpartyName: "Acme Corporation",
          amount: 1250.5,
          date: "2026-03-04"
        })
        const acmeTools = await transaction(app, token, { name: "Acmeville tools", date: "2026-03-05" })
        await transaction(app, token, { name: "Coffee" })

        const hits = await search(app, token, "q=acme")
        assert.deepStrictEqual(
          hits.map((h) => h.id),
          [acmeCustomer.id, acmeTools.id, invoice.id, globex.id]
        )
        assert.deepStrictEqual(hits[0], {
          type: "customer",
          id: acmeCustomer.id,
          title: "Acme Corporation",
          subtitle: "billing@acme.example",
          amount: null,
          currency: null,
          date: null,
          rank: Number(hits[0]?.rank)
        })
        assert.deepStrictEqual(hits[2], {
          type: "transaction",
          id: invoice.id,
          title: "Invoice 42",
          subtitle: "Acme Corporation",
          amount: 1250.5,
          currency: "USD",
          date: "2026-03-04",
          rank: Number(hits[2]?.rank)
        })
        assert.deepStrictEqual(
          (await search(app, token, "q=ACME%20corp")).map((h) => h.id),
          [acmeCustomer.id, invoice.id],
          "every word must match, as a prefix, in any case"
        )
        assert.deepStrictEqual(
          (await search(app, token, "q=acme&types=transaction")).map((h) => h.id),
          [acmeTools.id, invoice.id]
        )
        assert.deepStrictEqual(
          (await search(app, token, "q=acme&types=customer,customer")).map((h) => h.id),
          [acmeCustomer.id, globex.id]
        )
        assert.deepStrictEqual(
          (await search(app, token, "q=acme&types=customer,transaction&limit=2")).map((h) => h.id),
          [acmeCustomer.id, acmeTools.id]
        )
        assert.deepStrictEqual(
          (await search(app, token, "q=billing.acme")).map((h) => h.id),
          [acmeCustomer.id],
          "punctuation separates words"
        )
        assert.deepStrictEqual(await search(app, token, "q=umbrella"), [])
        assert.deepStrictEqual(await search(app, token, "q=cme"), [], "words match from their start")
      })
    )

    it.effect("finds invoices, documents and inbox items, each ranking a title hit above a body hit", () =>
      withAppOnPorts(async (app, ports) => {
        const team = await setUpKeyedTeam(app)
        const token = team.owner
        const vortex = await post(app, token, "/customers", { name: "Vortex Labs" })
        const other = await post(app, token, "/customers", { name: "Other Company" })
        const vortexInvoice = await createInvoice(app, token, vortex.id)
        const consulting = await createInvoice(app, token, other.id, {
          issueDate: "2026-02-01",
          lineItems: [{ name: "Vortex consulting", quantity: 1, unitPrice: 100 }],
          discount: 0
        })
        const noted = await createInvoice(app, token, other.id, { note: "Refers to the vortex project" })

        const invoices = await search(app, token, "q=vortex&types=invoice")
        assert.deepStrictEqual(
          invoices.map((h) => h.id),
          [vortexInvoice.id, consulting.id, noted.id],
          "the customer name is the title; line item names and the note are the rest (ties: latest issue date)"
        )
        assert.deepStrictEqual(invoices[0], {
          type: "invoice",
          id: vortexInvoice.id,
          title: vortexInvoice.invoiceNumber,
          subtitle: "Vortex Labs",
          amount: 362.38,
          currency: "USD",
          date: "2026-01-10",
          rank: Number(invoices[0]?.rank)
        })
        assert.deepStrictEqual(
          (await search(app, token, `q=${consulting.invoiceNumber}`)).map((h) => h.id),
          [consulting.id],
          "the invoice number is a title"
        )

        const report = await document(app, token, "Quarterly Zephyr report", "q3.pdf", "application/pdf")
        const notes = await document(app, token, "Notes", "zephyr-notes.txt", "text/plain")
        const documents = await search(app, token, "q=zephyr&types=document")
        assert.deepStrictEqual(
          documents.map((h) => h.id),
          [report.id, notes.id],
          "the title above the file name"
        )
        assert.deepStrictEqual(documents[0], {
          type: "document",
          id: report.id,
          title: "Quarterly Zephyr report",
          subtitle: "q3.pdf",
          amount: null,
          currency: null,
          date: report.createdAt.slice(0, 10),
          rank: Number(documents[0]?.rank)
        })
        assert.deepStrictEqual(
          (await search(app, token, "q=plain&types=document")).map((h) => h.id),
          [notes.id],
          "the content type is searched"
        )

        const subject = await receive(ports, team.id, {
          subject: "Quokka order confirmed",
          sender: "Shop <orders@shop.example>",
          textBody: "Thanks.",
          createdAt: "2026-03-01T08:00:00.000Z"
        })
        const body = await receive(ports, team.id, {
          subject: "Hello",
          sender: "Jane <jane@example.com>",
          textBody: `${"a long message first ".repeat(10)}then the quokka`,
          createdAt: "2026-03-03T08:00:00.000Z"
        })
        const attachment = await receive(ports, team.id, {
          subject: "Scans",
          sender: "Scanner <scanner@example.com>",
          textBody: "",
          createdAt: "2026-03-02T08:00:00.000Z",
          attachments: ["quokka-receipt.pdf"]
        })
        const inbox = await search(app, token, "q=quokka&types=inbox")
        assert.deepStrictEqual(
          inbox.map((h) => h.id),
          [subject.id, body.id, attachment.id],
          "the subject above the text body and attachment names (past the 16th word too; ties: latest)"
        )
        assert.deepStrictEqual(inbox[0], {
          type: "inbox",
          id: subject.id,
          title: "Quokka order confirmed",
          subtitle: "Shop <orders@shop.example>",
          amount: null,
          currency: null,
          date: "2026-03-01",
          rank: Number(inbox[0]?.rank)
        })
        assert.deepStrictEqual(
          (await search(app, token, "q=orders%20shop&types=inbox")).map((h) => h.id),
          [subject.id],
          "the sender is searched"
        )

        const words = Array.from({ length: 200_000 }, (_, i) => `word${i}`).join(" ")
        const huge = await receive(ports, team.id, {
          subject: "Numbat",
          sender: "flood@example.com",
          textBody: `early ${words} late`,
          createdAt: "2026-03-04T08:00:00.000Z"
        })
        assert.isAbove(huge.textBody.length, 2_000_000, "more distinct words than one text-search document holds")
        assert.deepStrictEqual(
          (await search(app, token, "q=numbat%20early")).map((h) => h.id),
          [huge.id],
          "a huge e-mail is stored and searched"
        )
        assert.deepStrictEqual(await search(app, token, "q=numbat%20late"), [], "past the searched characters")

        const all = await search(app, token, "q=vortex%20zephyr%20quokka")
        assert.deepStrictEqual(all, [], "every word must match one result")
        const mixed = await search(app, token, "q=quokka&types=inbox,document,invoice&limit=50")
        assert.deepStrictEqual(new Set(mixed.map((h) => h.type)), new Set(["inbox"]))
        const everything = await search(app, token, "q=vortex&types=customer,invoice,document,inbox,transaction")
        assert.sameMembers(
          everything.map((h) => h.id),
          [vortex.id, vortexInvoice.id, consulting.id, noted.id]
        )
      })
    )

    it.effect("never answers another team's rows; bad input names the field; the scope holds", () =>
      withAppOnPorts(async (app, ports) => {
        const acme = await setUpKeyedTeam(app)
        const globex = await setUpKeyedTeam(app)
        const token = acme.owner
        const ours = await post(app, token, "/customers", { name: "Shared Name" })
        const theirs = await post(app, globex.owner, "/customers", { name: "Shared Name" })
        await transaction(app, globex.owner, { name: "Shared name transaction" })
        await createInvoice(app, globex.owner, theirs.id)
        await document(app, globex.owner, "Shared name contract", "shared.pdf", "application/pdf")
        await receive(ports, globex.id, {
          subject: "Shared name mail",
          sender: "shared@example.com",
          textBody: "shared",
          createdAt: "2026-03-01T08:00:00.000Z"
        })
        assert.deepStrictEqual(
          (await search(app, token, "q=shared")).map((h) => h.id),
          [ours.id]
        )
        const ourInvoice = await createInvoice(app, token, ours.id)
        const ourDocument = await document(app, token, "Shared name contract", "shared.pdf", "application/pdf")
        const ourMail = await receive(ports, acme.id, {
          subject: "Shared name mail",
          sender: "shared@example.com",
          textBody: "shared",
          createdAt: "2026-03-01T08:00:00.000Z"
        })
        for (const [type, id] of [
          ["invoice", ourInvoice.id],
          ["document", ourDocument.id],
          ["inbox", ourMail.id]
        ]) {
          assert.deepStrictEqual(
            (await search(app, token, `q=shared&types=${type}`)).map((h) => h.id),
            [id],
            type
          )
        }

        assertInvalid(await app.call("GET", "/search?q=", { token }), "query.q")
        assertInvalid(await app.call("GET", "/search", { token }), "query.q")
        assertInvalid(await app.call("GET", `/search?q=${"a".repeat(201)}`, { token }), "query.q")
        assertInvalid(await app.call("GET", "/search?q=%20!!%20", { token }), "query.q")
        assertInvalid(await app.call("GET", "/search?q=acme&types=project", { token }), "query.types")
        assertInvalid(await app.call("GET", "/search?q=acme&types=invoices", { token }), "query.types")
        assertInvalid(await app.call("GET", "/search?q=acme&types=", { token }), "query.types")
        for (const limit of ["0", "51", "2.5", "ten"]) {
          assertInvalid(await app.call("GET", `/search?q=acme&limit=${limit}`, { token }), "query.limit")
        }
        assert.strictEqual((await app.call("GET", "/search?q=acme&limit=50", { token })).status, 200)

        const keyOf = async (scopes: ReadonlyArray<string>) =>
          (await app.call("POST", "/api-keys", { token, body: { name: "k", scopes } })).body.secret
        assert.strictEqual(
          (await app.call("GET", "/search?q=shared", { token: await keyOf(["search.read"]) })).status,
          200
        )
        assertNeedsScope(
          await app.call("GET", "/search?q=shared", { token: await keyOf(["customers.read"]) }),
          "search.read"
        )
        assert.strictEqual((await app.call("GET", "/search?q=shared")).status, 401)
      })
    )
  })
