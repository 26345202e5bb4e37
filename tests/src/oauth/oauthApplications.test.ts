import { assert, layer } from "@effect/vitest"
import { PortsMemory } from "@svc/adapters-memory"
import type { TeamId } from "@svc/domain"
import { makeClient } from "@svc/sdk"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { sessionToken } from "../support/InProcessApp.ts"
import { memberToken } from "../support/TeamMembers.ts"
import { baseEnv, call, type RunningApp, withApp } from "../support/WebhooksHarness.ts"

const APPS = "/oauth-applications"

const CREATE = {
  name: "Books sync",
  redirectUris: ["https://acme.example/callback", "http://localhost:8080/cb"],
  scopes: ["transactions.read", "users.read"] as const,
  developerName: "Acme Labs"
}

const newTeam = (app: RunningApp) =>
  Effect.gen(function* () {
    const token = yield* Effect.promise(() => sessionToken())
    const created = yield* call(app, "POST", "/teams", token, { name: "Acme" })
    assert.strictEqual(created.status, 201)
    return { teamId: created.body.id as TeamId, token }
  })

const served = <A, E, R>(f: (app: RunningApp) => Effect.Effect<A, E, R>) => withApp(baseEnv(), f)

layer(PortsMemory, { excludeTestServices: true })("OAuth applications over HTTP", (it) => {
  it.effect("an owner creates an application, sees its secret once, reads, updates and rotates it", () =>
    served((app) =>
      Effect.gen(function* () {
        const { token } = yield* newTeam(app)
        const created = yield* call(app, "POST", APPS, token, CREATE)
        assert.strictEqual(created.status, 201)
        assert.match(created.body.secret, /^mid_client_secret_/)
        assert.match(created.body.clientId, /^mid_client_/)
        assert.deepInclude(created.body, {
          object: "oauth_application",
          name: "Books sync",
          description: null,
          developerName: "Acme Labs",
          screenshots: [],
          redirectUris: CREATE.redirectUris,
          scopes: CREATE.scopes,
          confidential: true,
          status: "draft"
        })
        const id = created.body.id as string
        const read = yield* call(app, "GET", `${APPS}/${id}`, token)
        const { secret, ...view } = created.body
        assert.deepStrictEqual(read.body, view)
        const listed = yield* call(app, "GET", APPS, token)
        assert.deepStrictEqual(listed.body.data, [view])
        for (const body of [read.body, listed.body]) {
          assert.notInclude(JSON.stringify(body), secret)
          assert.notInclude(JSON.stringify(body), "clientSecretHash")
        }

        const patched = yield* call(app, "PATCH", `${APPS}/${id}`, token, {
          name: "Books sync 2",
          developerName: null,
          screenshots: ["https://acme.example/s1.png"]
        })
        assert.strictEqual(patched.status, 200)
        assert.deepStrictEqual(patched.body, {
          ...view,
          name: "Books sync 2",
          developerName: null,
          screenshots: ["https://acme.example/s1.png"]
        })

        const rotated = yield* call(app, "POST", `${APPS}/${id}/rotate-secret`, token)
        assert.strictEqual(rotated.status, 200)
        assert.match(rotated.body.secret, /^mid_client_secret_/)
        assert.notStrictEqual(rotated.body.secret, secret)
        assert.deepStrictEqual({ ...rotated.body, secret: undefined }, { ...patched.body, secret: undefined })
      })
    )
  )

  it.effect("bad redirect URIs, scopes and fields are 400 naming the field", () =>
    served((app) =>
      Effect.gen(function* () {
        const { token } = yield* newTeam(app)
        const cases: ReadonlyArray<readonly [object, string, RegExp]> = [
          [{ ...CREATE, redirectUris: ["http://acme.example/cb"] }, "redirectUris.0", /localhost/],
          [{ ...CREATE, redirectUris: ["https://acme.example/cb#frag"] }, "redirectUris.0", /fragment/],
          [{ ...CREATE, redirectUris: ["javascript:alert(1)"] }, "redirectUris.0", /not allowed/],
          [{ ...CREATE, redirectUris: [] }, "redirectUris", /./],
          [{ ...CREATE, scopes: ["users.read", "root"] }, "scopes.1", /./],
          [{ ...CREATE, name: "" }, "name", /./],
          [{ ...CREATE, logoUrl: "ftp://acme.example/logo" }, "logoUrl", /http or https/],
          [{ ...CREATE, screenshots: Array(5).fill("https://acme.example/s.png") }, "screenshots", /./],
          [{ ...CREATE, clientSecret: "mine" }, "clientSecret", /./]
        ]
        for (const [body, path, message] of cases) {
          const answer = yield* call(app, "POST", APPS, token, body)
          assert.deepStrictEqual([answer.status, answer.body.error], [400, "validation_failed"], JSON.stringify(body))
          const detail = answer.body.details.find((d: { path: string }) => d.path === path)
          assert.isDefined(detail, `${path} in ${JSON.stringify(answer.body.details)}`)
          assert.match(detail.message, message)
        }
        const { body } = yield* call(app, "POST", APPS, token, CREATE)
        const patch = yield* call(app, "PATCH", `${APPS}/${body.id}`, token, { scopes: null })
        assert.deepStrictEqual([patch.status, patch.body.details[0].path], [400, "scopes"])
        const status = yield* call(app, "POST", `${APPS}/${body.id}/status`, token, { status: "live" })
        assert.deepStrictEqual([status.status, status.body.details[0].path], [400, "status"])
        assert.strictEqual((yield* call(app, "GET", APPS, token)).body.data.length, 1, "nothing else was created")
      })
    )
  )

  it.effect("the owner moves the review status; invalid moves are 409 naming both statuses", () =>
    served((app) =>
      Effect.gen(function* () {
        const { token } = yield* newTeam(app)
        const { body } = yield* call(app, "POST", APPS, token, CREATE)
        const status = (value: string) => call(app, "POST", `${APPS}/${body.id}/status`, token, { status: value })
        const skip = yield* status("approved")
        assert.deepStrictEqual([skip.status, skip.body.error, skip.body.code], [409, "invalid_status_transition", 409])
        assert.match(skip.body.message, /from draft to approved/)
        assert.deepStrictEqual(
          [(yield* status("pending")).body.status, (yield* status("approved")).body.status],
          ["pending", "approved"]
        )
        assert.strictEqual((yield* status("approved")).status, 200, "asking for the current status is a no-op")
        const back = yield* status("draft")
        assert.deepStrictEqual([back.status, back.body.error], [409, "invalid_status_transition"])
        assert.match(back.body.message, /from approved to draft/)
        assert.strictEqual((yield* call(app, "GET", `${APPS}/${body.id}`, token)).body.status, "approved")
      })
    )
  )

  it.effect("admins manage but do not review, members get 403, other teams 404", () =>
    served((app) =>
      Effect.gen(function* () {
        const { teamId, token } = yield* newTeam(app)
        const admin = yield* memberToken(teamId, "admin")
        const member = yield* memberToken(teamId, "member")
        const created = yield* call(app, "POST", APPS, admin.token, CREATE)
        assert.strictEqual(created.status, 201)
        const id = created.body.id as string
        assert.strictEqual((yield* call(app, "PATCH", `${APPS}/${id}`, admin.token, { name: "By admin" })).status, 200)
        assert.strictEqual((yield* call(app, "POST", `${APPS}/${id}/rotate-secret`, admin.token)).status, 200)
        const review = yield* call(app, "POST", `${APPS}/${id}/status`, admin.token, { status: "pending" })
        assert.deepStrictEqual([review.status, review.body.error], [403, "forbidden"])
        assert.match(review.body.message, /owner/)

        const routes = [
          ["POST", APPS, CREATE],
          ["GET", APPS, undefined],
          ["GET", `${APPS}/${id}`, undefined],
          ["PATCH", `${APPS}/${id}`, { name: "x" }],
          ["POST", `${APPS}/${id}/rotate-secret`, undefined],
          ["POST", `${APPS}/${id}/status`, { status: "pending" }]
        ] as const
        for (const [method, path, body] of routes) {
          const answer = yield* call(app, method, path, member.token, body)
          assert.deepStrictEqual([answer.status, answer.body.error], [403, "forbidden"], `${method} ${path}`)
        }
        assert.strictEqual((yield* call(app, "GET", APPS)).status, 401)

        const other = yield* newTeam(app)
        assert.deepStrictEqual((yield* call(app, "GET", APPS, other.token)).body.data, [])
        for (const [method, path, body] of routes.slice(2)) {
          const answer = yield* call(app, method, path, other.token, body)
          assert.deepStrictEqual([answer.status, answer.body.error], [404, "not_found"], `${method} ${path}`)
        }
        const mine = yield* call(app, "GET", `${APPS}/${id}`, token)
        assert.deepStrictEqual([mine.body.name, mine.body.status], ["By admin", "draft"], "unchanged by others")
      })
    )
  )

  it.effect("the SDK's typed client carries the new routes", () =>
    served((app) =>
      Effect.gen(function* () {
        const { token } = yield* newTeam(app)
        const client = yield* makeClient({ baseUrl: app.url, token })
        const created = yield* client.oauthApplications.create({ payload: CREATE })
        assert.match(created.secret, /^mid_client_secret_/)
        const submitted = yield* client.oauthApplications.setStatus({
          params: { id: created.id },
          payload: { status: "pending" }
        })
        assert.strictEqual(submitted.status, "pending")
        const parked = yield* client.inboundEvents.list({ query: { status: "parked" } })
        assert.deepStrictEqual(parked.data, [])
      }).pipe(Effect.provide(FetchHttpClient.layer))
    )
  )
})
