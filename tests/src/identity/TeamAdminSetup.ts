import { assert } from "@effect/vitest"
import { Readiness } from "@svc/adapters-http"
import { appLayer, type Ports } from "@svc/api"
import { InviteTtlSeconds, Mailer, type MailMessage } from "@svc/domain"
import { Effect, Layer, Ref } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import type { Client } from "../support/HttpScenarios.ts"
import { clientOf, sessionToken, testConfig } from "../support/InProcessApp.ts"

/** A person with a session: their user id, e-mail and token. */
export interface Person {
  readonly id: string
  readonly email: string
  readonly token: string
}

/** A new person signing in with `email`. */
export const person = async (email = `${crypto.randomUUID()}@example.com`): Promise<Person> => {
  const id = crypto.randomUUID()
  return { id, email, token: await sessionToken({ id, email }) }
}

/**
 * Runs `f` against the whole app in process over the ports in context, mailing through a recorder whose messages `f`
 * reads; `inviteTtlSeconds` overrides the invitation lifetime.
 */
export const withTeamApp = (
  f: (app: Client, mail: () => ReadonlyArray<MailMessage>) => Promise<void>,
  inviteTtlSeconds?: number
) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<Ports>()
    const sent = yield* Ref.make<ReadonlyArray<MailMessage>>([])
    const mailer = Layer.succeed(Mailer, {
      send: (message) => Ref.update(sent, (all) => [...all, message]),
      localDelivery: null
    })
    const app = appLayer(
      testConfig,
      Layer.succeedContext(context),
      Layer.succeed(Readiness, { dependencies: [{ name: "database", check: Effect.succeed(true) }] })
    ).pipe(
      Layer.provide(HttpServer.layerServices),
      Layer.provide(mailer),
      Layer.provide(inviteTtlSeconds === undefined ? Layer.empty : Layer.succeed(InviteTtlSeconds, inviteTtlSeconds))
    )
    const { handler, dispose } = HttpRouter.toWebHandler(app, { disableLogger: true })
    yield* Effect.addFinalizer(() => Effect.promise(() => dispose()))
    yield* Effect.promise(() => f(clientOf(handler), () => Effect.runSync(Ref.get(sent))))
  }).pipe(Effect.scoped)

/** A team created by `owner`: its id. */
export const createTeam = async (app: Client, owner: Person, name = "Acme") => {
  const created = await app.call("POST", "/teams", { token: owner.token, body: { name } })
  assert.strictEqual(created.status, 201, JSON.stringify(created.body))
  return created.body.id as string
}

/** The invitation token in the last message mailed to `email`. */
export const tokenMailedTo = (mail: ReadonlyArray<MailMessage>, email: string) => {
  const message = mail.findLast((m) => m.to === email)
  assert.isDefined(message, `no mail to ${email}`)
  const token = /svcinv_[A-Za-z0-9_-]+/u.exec(message.text)?.[0]
  assert.isDefined(token, message.text)
  return token
}

/** Invites `email` to `teamId` as `role` (by `by`) and has `invitee` accept; answers the invitee's membership. */
export const join = async (
  app: Client,
  mail: () => ReadonlyArray<MailMessage>,
  teamId: string,
  by: Person,
  invitee: Person,
  role: "owner" | "admin" | "member"
) => {
  const invite = await app.call("POST", `/teams/${teamId}/invites`, {
    token: by.token,
    body: { email: invitee.email, role }
  })
  assert.strictEqual(invite.status, 201, JSON.stringify(invite.body))
  const accepted = await app.call("POST", "/invites/accept", {
    token: invitee.token,
    body: { token: tokenMailedTo(mail(), invitee.email) }
  })
  assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
  return accepted.body
}
