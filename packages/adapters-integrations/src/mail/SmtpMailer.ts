import { connect as connectTcp, type Socket } from "node:net"
import { connect as connectTls } from "node:tls"
import { Mailer, type MailerShape, type MailMessage, newIdText } from "@svc/domain"
import { Clock, Data, Duration, Effect, FiberSet, Layer, Redacted, Schedule } from "effect"

/** Where and how the SMTP mailer sends: from `SMTP_URL` (`smtp://` plain, `smtps://` TLS from the first byte). */
export interface SmtpSettings {
  readonly host: string
  readonly port: number
  readonly tls: boolean
  readonly username: string | undefined
  readonly password: Redacted.Redacted | undefined
  readonly from: string
  /** The name this service greets the server with (EHLO) and puts in Message-IDs. */
  readonly helloName: string
  readonly timeoutMs: number
  readonly attempts: number
  /** The first retry's delay; each further retry waits twice as long. */
  readonly retryBaseDelayMs: number
}

/** A refused or broken SMTP exchange; `reply` is the server's last line (never the message body). */
export class SmtpFailure extends Data.TaggedError("SmtpFailure")<{ readonly step: string; readonly reply: string }> {}

const ADDRESS = /^[^\s<>@,;"]+@[^\s<>@,;"]+$/u

/**
 * Reads `smtp://user:password@host:port[?hello=name]` (or `smtps://…`) into settings; throws on anything else, so a
 * bad `SMTP_URL` stops the service at start rather than losing mail later.
 */
export const smtpSettings = (url: string, from: string, defaultHelloName = "localhost"): SmtpSettings => {
  const parsed = new URL(url)
  if (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") {
    throw new Error("SMTP_URL must start with smtp:// or smtps://")
  }
  if (!ADDRESS.test(from)) throw new Error("SMTP_FROM must be a plain e-mail address")
  const tls = parsed.protocol === "smtps:"
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/u, "$1"),
    port: parsed.port === "" ? (tls ? 465 : 25) : Number(parsed.port),
    tls,
    username: parsed.username === "" ? undefined : decodeURIComponent(parsed.username),
    password: parsed.password === "" ? undefined : Redacted.make(decodeURIComponent(parsed.password)),
    from,
    helloName: parsed.searchParams.get("hello") ?? defaultHelloName,
    timeoutMs: 15_000,
    attempts: 3,
    retryBaseDelayMs: 500
  }
}

/** RFC 2047 encoded-word for a header value that is not plain ASCII. */
const headerText = (value: string) =>
  /^[\x20-\x7e]*$/u.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, "utf8").toString("base64")}?=`

/**
 * The message as sent after DATA: a UTF-8 text part in base64, whose lines never start with a dot, so the body needs no
 * dot-stuffing; CR and LF are refused in the headers it takes from the caller (no header injection).
 */
export const smtpMessage = (message: MailMessage, from: string, date: Date, messageId: string): string => {
  const body = Buffer.from(message.text, "utf8").toString("base64")
  return [
    `From: ${from}`,
    `To: ${message.to}`,
    `Subject: ${headerText(message.subject)}`,
    `Date: ${date.toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: <${messageId}>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    ...(body.match(/.{1,76}/gu) ?? [""])
  ].join("\r\n")
}

/** One SMTP reply: its code and its last line. */
interface Reply {
  readonly code: number
  readonly line: string
}

/** Reads replies off a socket: lines of `NNN-text` continue a reply, `NNN text` ends it. */
const replyReader = (socket: Socket) => {
  let buffered = ""
  const replies: Array<Reply> = []
  const waiting: Array<(reply: Reply | Error) => void> = []
  let failure: Error | undefined
  const deliver = (reply: Reply | Error) => {
    const next = waiting.shift()
    if (next !== undefined) next(reply)
    else if (reply instanceof Error) failure = reply
    else replies.push(reply)
  }
  socket.setEncoding("utf8")
  socket.on("data", (chunk: string) => {
    buffered += chunk
    for (let end = buffered.indexOf("\r\n"); end >= 0; end = buffered.indexOf("\r\n")) {
      const line = buffered.slice(0, end)
      buffered = buffered.slice(end + 2)
      if (/^\d{3}(?: |$)/u.test(line)) deliver({ code: Number(line.slice(0, 3)), line })
    }
  })
  const fail = (error: Error) => {
    failure ??= error
    for (const next of waiting.splice(0)) next(error)
  }
  socket.on("error", fail)
  socket.on("close", () => fail(new Error("the SMTP server closed the connection")))
  return (): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const ready = replies.shift()
      if (ready !== undefined) return resolve(ready)
      if (failure !== undefined) return reject(failure)
      waiting.push((reply) => (reply instanceof Error ? reject(reply) : resolve(reply)))
    })
}

/** One delivery over one connection: greeting, EHLO, AUTH PLAIN when credentials are set, MAIL, RCPT, DATA, QUIT. */
const deliverOnce = (settings: SmtpSettings, to: string, data: string) =>
  Effect.acquireUseRelease(
    Effect.sync(() =>
      settings.tls
        ? connectTls({ host: settings.host, port: settings.port, servername: settings.host })
        : connectTcp({ host: settings.host, port: settings.port })
    ),
    (socket) =>
      Effect.tryPromise({
        try: async () => {
          const nextReply = replyReader(socket)
          const step = async (name: string, command: string | undefined, expected: ReadonlyArray<number>) => {
            if (command !== undefined) socket.write(`${command}\r\n`)
            const reply = await nextReply()
            if (!expected.includes(reply.code)) throw new SmtpFailure({ step: name, reply: reply.line })
          }
          await step("greeting", undefined, [220])
          await step("EHLO", `EHLO ${settings.helloName}`, [250])
          if (settings.username !== undefined) {
            const secret = Redacted.value(settings.password ?? Redacted.make(""))
            const plain = Buffer.from(`\u0000${settings.username}\u0000${secret}`, "utf8").toString("base64")
            await step("AUTH", `AUTH PLAIN ${plain}`, [235])
          }
          await step("MAIL FROM", `MAIL FROM:<${settings.from}>`, [250])
          await step("RCPT TO", `RCPT TO:<${to}>`, [250, 251])
          await step("DATA", "DATA", [354])
          await step("message", `${data}\r\n.`, [250])
          socket.write("QUIT\r\n")
        },
        catch: (cause) =>
          cause instanceof SmtpFailure
            ? cause
            : new SmtpFailure({ step: "connection", reply: cause instanceof Error ? cause.message : String(cause) })
      }),
    (socket) => Effect.sync(() => socket.destroy())
  ).pipe(
    Effect.timeoutOrElse({
      duration: Duration.millis(settings.timeoutMs),
      orElse: () => Effect.fail(new SmtpFailure({ step: "timeout", reply: `no answer in ${settings.timeoutMs} ms` }))
    })
  )

/**
 * Sends mail through an SMTP server. A message whose address or subject could inject headers is not sent; a failed
 * exchange is retried with a doubling delay, and one that still fails is logged (step and server reply, never the body,
 * which may carry a sign-in link) — the mail port does not fail its caller.
 */
export const smtpMailer = (settings: SmtpSettings): Pick<MailerShape, "send"> => ({
  send: (message) =>
    Effect.gen(function* () {
      if (!ADDRESS.test(message.to) || /[\r\n]/u.test(message.subject)) {
        return yield* new SmtpFailure({
          step: "message",
          reply: "the recipient or subject is not a plain header value"
        })
      }
      const now = yield* Clock.currentTimeMillis
      const id = yield* newIdText
      const data = smtpMessage(message, settings.from, new Date(now), `${id}@${settings.helloName}`)
      yield* deliverOnce(settings, message.to, data).pipe(
        Effect.retry({
          times: settings.attempts - 1,
          schedule: Schedule.exponential(Duration.millis(settings.retryBaseDelayMs))
        })
      )
    }).pipe(
      Effect.catchTag("SmtpFailure", (failure) =>
        Effect.logError("mail not delivered").pipe(
          Effect.annotateLogs({ to: message.to, step: failure.step, reply: failure.reply })
        )
      )
    )
})

/**
 * The mail port over SMTP, sending in the background: `send` answers at once and the exchange runs on a fiber of the
 * layer's own, so a caller's response time says nothing about whether it mailed (a sign-in link to a known address
 * answers as fast as the refusal of an unknown one). A message still being sent when the service stops is dropped, as
 * a failed one is: the person asks again.
 */
export const SmtpMailer = {
  layer: (settings: SmtpSettings) =>
    Layer.effect(
      Mailer,
      Effect.gen(function* () {
        const sending = yield* FiberSet.make<void, never>()
        const mailer = smtpMailer(settings)
        return {
          send: (message: MailMessage) => Effect.asVoid(FiberSet.run(sending)(mailer.send(message))),
          localDelivery: null
        }
      })
    )
}
