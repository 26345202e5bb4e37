import { assert } from "@effect/vitest"
import type { TeamId } from "@svc/domain"
import type { Client } from "../../support/HttpScenarios.ts"

/** A raw answer: status, headers and the body's bytes. */
export type RawAnswer = Awaited<ReturnType<Client["rawCall"]>>

/** The JSON of a raw answer. */
export const jsonOf = (answer: RawAnswer) => JSON.parse(new TextDecoder().decode(answer.bytes))

/** A multipart upload to POST /documents: `parts` in order, a file part as `{filename, type, content}`. */
export const upload = (
  app: Client,
  token: string,
  parts: ReadonlyArray<
    readonly [string, string | { readonly filename: string; readonly type: string; readonly content: Uint8Array }]
  >
) => {
  const form = new FormData()
  for (const [name, value] of parts) {
    if (typeof value === "string") form.append(name, value)
    else form.append(name, new Blob([value.content as Uint8Array<ArrayBuffer>], { type: value.type }), value.filename)
  }
  return app.rawCall("/documents", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form })
}

/** A PDF-looking file of `size` bytes with varied content. */
export const pdfBytes = (size: number) => {
  const bytes = new Uint8Array(size)
  bytes.set(new TextEncoder().encode("%PDF-1.7\n").subarray(0, size))
  for (let i = 9; i < size; i++) bytes[i] = (i * 31 + 7) % 256
  return bytes
}

/** The team file key of the session's team (GET /users/me). */
export const fileKeyOf = async (app: Client, token: string): Promise<string> => {
  const me = await app.call("GET", "/users/me", { token })
  assert.strictEqual(me.status, 200)
  return me.body.fileKey
}

/** The inbound e-mail provider's JSON for a message to the team's inbox address, with `[name, contentType, bytes]` attachments. */
export const inboxMail = (
  teamId: TeamId,
  messageId: string,
  attachments: ReadonlyArray<readonly [string, string, Uint8Array]>
) =>
  JSON.stringify({
    MessageID: messageId,
    From: "Acme Cloud <billing@acmecloud.example>",
    To: `Invoices <inbox+${teamId}@inbox.svc.test>`,
    Subject: "Invoice INV-42: 1,234.50 due",
    TextBody: "Please find your invoice attached.",
    Attachments: attachments.map(([Name, ContentType, content]) => ({
      Name,
      ContentType,
      Content: Buffer.from(content).toString("base64")
    }))
  })
