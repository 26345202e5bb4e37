import type { AddressInfo } from "node:net"
import { createServer, type Socket } from "node:net"
import { Effect } from "effect"

/** A message the stand-in accepted: the envelope and the DATA as sent. */
interface AcceptedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly data: string
  readonly authenticatedAs: string | null
}

/** How the stand-in misbehaves: refuse recipients, or keep silent after the greeting. */
interface SmtpBehaviour {
  rejectRecipients: boolean
  silentAfterGreeting: boolean
}

/**
 * A local SMTP server on a loopback port, closed with the scope: it speaks the RFC 5321 exchange a relay does (EHLO
 * with AUTH PLAIN offered, MAIL, RCPT, DATA ending at a lone dot, QUIT), checks AUTH PLAIN against `credentials`, and
 * keeps every accepted message and every connection it saw.
 */
export const smtpServerFake = (credentials: { readonly username: string; readonly password: string }) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const accepted: Array<AcceptedMail> = []
      const behaviour: SmtpBehaviour = { rejectRecipients: false, silentAfterGreeting: false }
      let connections = 0
      const sockets = new Set<Socket>()
      const server = createServer((socket) => {
        connections += 1
        sockets.add(socket)
        socket.on("close", () => sockets.delete(socket))
        socket.setEncoding("utf8")
        const reply = (line: string) => socket.write(`${line}\r\n`)
        let buffered = ""
        let inData = false
        let dataLines: Array<string> = []
        let from = ""
        let to: Array<string> = []
        let user: string | null = null
        reply("220 smtp.test ESMTP ready")
        if (behaviour.silentAfterGreeting) return
        socket.on("data", (chunk: string) => {
          buffered += chunk
          for (let end = buffered.indexOf("\r\n"); end >= 0; end = buffered.indexOf("\r\n")) {
            const line = buffered.slice(0, end)
            buffered = buffered.slice(end + 2)
            if (inData) {
              if (line === ".") {
                inData = false
                accepted.push({ from, to, data: dataLines.join("\r\n"), authenticatedAs: user })
                reply("250 2.0.0 queued")
              } else dataLines.push(line.startsWith("..") ? line.slice(1) : line)
              continue
            }
            const verb = line.slice(0, 4).toUpperCase()
            if (verb === "EHLO") {
              reply("250-smtp.test greets you")
              reply("250-AUTH PLAIN")
              reply("250 8BITMIME")
            } else if (line.toUpperCase().startsWith("AUTH PLAIN ")) {
              const [, name, secret] = Buffer.from(line.slice(11), "base64").toString("utf8").split("\u0000")
              if (name === credentials.username && secret === credentials.password) {
                user = name
                reply("235 2.7.0 authenticated")
              } else reply("535 5.7.8 authentication failed")
            } else if (verb === "MAIL") {
              from = /<(.*)>/u.exec(line)?.[1] ?? ""
              to = []
              reply(user === null ? "530 5.7.0 authentication required" : "250 2.1.0 ok")
            } else if (verb === "RCPT") {
              if (behaviour.rejectRecipients) reply("550 5.1.1 no such mailbox")
              else {
                to.push(/<(.*)>/u.exec(line)?.[1] ?? "")
                reply("250 2.1.5 ok")
              }
            } else if (verb === "DATA") {
              inData = true
              dataLines = []
              reply("354 end with <CRLF>.<CRLF>")
            } else if (verb === "QUIT") {
              reply("221 2.0.0 bye")
              socket.end()
            } else reply("502 5.5.2 command not recognised")
          }
        })
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const port = (server.address() as AddressInfo).port
      return {
        server,
        sockets,
        port,
        accepted,
        behaviour,
        connections: () => connections
      }
    }),
    ({ server, sockets }) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => resolve())
          })
      )
  )
