import { assert, describe, it } from "@effect/vitest"
import { type SmtpSettings, smtpMailer, smtpSettings } from "@svc/adapters-integrations"
import { Effect } from "effect"
import { smtpServerFake } from "./SmtpServerFake.ts"

const CREDENTIALS = { username: "svc-relay", password: "p@ss:word/0123" }

const settingsFor = (port: number, overrides: Partial<SmtpSettings> = {}): SmtpSettings => ({
  ...smtpSettings(
    `smtp://${encodeURIComponent(CREDENTIALS.username)}:${encodeURIComponent(CREDENTIALS.password)}@127.0.0.1:${port}`,
    "no-reply@svc.test"
  ),
  retryBaseDelayMs: 5,
  ...overrides
})

/** The decoded text part and the headers of a message as the server got it. */
const parse = (data: string) => {
  const [head = "", body = ""] = data.split("\r\n\r\n")
  const headers = Object.fromEntries(
    head
      .split("\r\n")
      .map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 2)])
  )
  return { headers, text: Buffer.from(body.replaceAll("\r\n", ""), "base64").toString("utf8") }
}

describe("SmtpMailer against an SMTP stand-in", () => {
  it.live("authenticates with AUTH PLAIN and delivers the message with its headers and UTF-8 text", () =>
    Effect.gen(function* () {
      const server = yield* smtpServerFake(CREDENTIALS)
      const text = `Sign in: https://svc.test/dashboard/sign-in#token=abc\n.\nÜbermorgen läuft er ab. ${"x".repeat(200)}`
      yield* smtpMailer(settingsFor(server.port)).send({ to: "lead@team.test", subject: "Ihr Anmeldelink", text })
      assert.strictEqual(server.accepted.length, 1)
      const [mail] = server.accepted
      assert.strictEqual(mail?.authenticatedAs, CREDENTIALS.username)
      assert.strictEqual(mail?.from, "no-reply@svc.test")
      assert.deepStrictEqual(mail?.to, ["lead@team.test"])
      const { headers, text: received } = parse(mail?.data ?? "")
      assert.strictEqual(received, text)
      assert.strictEqual(headers.to, "lead@team.test")
      assert.strictEqual(headers.from, "no-reply@svc.test")
      assert.strictEqual(headers.subject, "Ihr Anmeldelink")
      assert.strictEqual(headers["content-type"], "text/plain; charset=utf-8")
      assert.match(headers["message-id"] ?? "", /^<[0-9a-f-]+@localhost>$/u)
      assert.isTrue((mail?.data ?? "").split("\r\n").every((line) => line.length <= 998))
    })
  )

  it.live("encodes a subject that is not plain ASCII as an RFC 2047 word", () =>
    Effect.gen(function* () {
      const server = yield* smtpServerFake(CREDENTIALS)
      yield* smtpMailer(settingsFor(server.port)).send({ to: "a@team.test", subject: "Zahlung über 5 €", text: "hi" })
      const { headers } = parse(server.accepted[0]?.data ?? "")
      assert.strictEqual(headers.subject, `=?UTF-8?B?${Buffer.from("Zahlung über 5 €").toString("base64")}?=`)
    })
  )

  it.live("refuses a recipient or subject that would inject headers, without connecting", () =>
    Effect.gen(function* () {
      const server = yield* smtpServerFake(CREDENTIALS)
      const mailer = smtpMailer(settingsFor(server.port))
      yield* mailer.send({ to: "a@team.test\r\nBcc: victim@else.test", subject: "hi", text: "x" })
      yield* mailer.send({ to: "a@team.test", subject: "hi\r\nBcc: victim@else.test", text: "x" })
      assert.strictEqual(server.connections(), 0)
      assert.strictEqual(server.accepted.length, 0)
    })
  )

  it.live("retries a refused delivery as configured, then gives up without failing the caller", () =>
    Effect.gen(function* () {
      const server = yield* smtpServerFake(CREDENTIALS)
      server.behaviour.rejectRecipients = true
      yield* smtpMailer(settingsFor(server.port, { attempts: 3 })).send({ to: "a@team.test", subject: "s", text: "t" })
      assert.strictEqual(server.connections(), 3)
      assert.strictEqual(server.accepted.length, 0)
    })
  )

  it.live("a wrong password is refused by the server and nothing is sent", () =>
    Effect.gen(function* () {
      const server = yield* smtpServerFake(CREDENTIALS)
      const settings = smtpSettings(`smtp://svc-relay:wrong@127.0.0.1:${server.port}`, "no-reply@svc.test")
      yield* smtpMailer({ ...settings, attempts: 1 }).send({ to: "a@team.test", subject: "s", text: "t" })
      assert.strictEqual(server.accepted.length, 0)
      assert.strictEqual(server.connections(), 1)
    })
  )

  it.live("gives up on a server that stops answering after its timeout, and on one that is down", () =>
    Effect.gen(function* () {
      const server = yield* smtpServerFake(CREDENTIALS)
      server.behaviour.silentAfterGreeting = true
      yield* smtpMailer(settingsFor(server.port, { attempts: 2, timeoutMs: 200 })).send({
        to: "a@team.test",
        subject: "s",
        text: "t"
      })
      assert.strictEqual(server.connections(), 2)
      assert.strictEqual(server.accepted.length, 0)
      // A refused connection ends the attempt at once: with a minute's timeout, waiting it out would fail the test.
      yield* smtpMailer(settingsFor(1, { attempts: 2, timeoutMs: 60_000 })).send({
        to: "a@team.test",
        subject: "s",
        text: "t"
      })
    })
  )

  it("reads SMTP_URL and refuses what it cannot use", () => {
    const settings = smtpSettings(
      "smtps://user%40corp:s%3Acret@mail.corp.test?hello=svc.corp.test",
      "no-reply@corp.test"
    )
    assert.deepStrictEqual(
      { ...settings, password: undefined },
      {
        host: "mail.corp.test",
        port: 465,
        tls: true,
        username: "user@corp",
        password: undefined,
        from: "no-reply@corp.test",
        helloName: "svc.corp.test",
        timeoutMs: 15_000,
        attempts: 3,
        retryBaseDelayMs: 500
      }
    )
    assert.strictEqual(smtpSettings("smtp://relay.local", "a@b.test").port, 25)
    assert.strictEqual(smtpSettings("smtp://relay.local", "a@b.test").username, undefined)
    assert.throws(() => smtpSettings("http://relay.local", "a@b.test"), /smtp:\/\//u)
    assert.throws(() => smtpSettings("smtp://relay.local", "Name <a@b.test>"), /SMTP_FROM/u)
  })
})
