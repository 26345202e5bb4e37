import { assert, layer } from "@effect/vitest"
import {
  type ApplicationDetails,
  hashSecret,
  OAuth,
  OAuthApplications,
  OAuthRepo,
  pageRequest,
  toPage
} from "@svc/domain"
import { Effect, type Layer, Option } from "effect"
import { newTeam } from "../ledger/LedgerSetup.ts"
import { authorize, failureOf, type OAuthPorts, REDIRECT, registerPublic, servicesOver } from "./OAuthSetup.ts"

/** An application's details as a team first gives them. */
const DETAILS: ApplicationDetails = {
  name: "Books sync",
  description: "Keeps the books in sync",
  overview: null,
  developerName: "Acme Labs",
  logoUrl: "https://acme.example/logo.png",
  website: "https://acme.example",
  installUrl: null,
  screenshots: [],
  redirectUris: [REDIRECT],
  scopes: ["users.read", "teams.read"]
}

/** The error tag an effect fails with. */
const tagOf = <A, E extends { readonly _tag: string }, R>(self: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(self), (e) => e._tag)

/** A team's applications and their review path, on every OAuthRepo adapter. */
export const oauthApplicationsContract = <E>(name: string, ports: Layer.Layer<OAuthPorts, E, never>) =>
  layer(servicesOver(ports), { timeout: "60 seconds" })(`OAuth applications (${name})`, (it) => {
    it.effect("a created application is a confidential draft whose secret is stored hashed and works once issued", () =>
      Effect.gen(function* () {
        const apps = yield* OAuthApplications
        const oauth = yield* OAuth
        const { team, owner } = yield* newTeam
        const { application, clientSecret } = yield* apps.create(team.id, DETAILS)
        assert.match(clientSecret, /^mid_client_secret_/)
        assert.match(application.clientId, /^mid_client_/)
        assert.deepInclude(application, { ...DETAILS, status: "draft", teamId: team.id })
        const stored = Option.getOrThrow(yield* OAuthRepo.use((repo) => repo.findApplication(application.id)))
        assert.strictEqual(stored.clientSecretHash, yield* hashSecret(clientSecret))
        assert.notInclude(JSON.stringify(stored), clientSecret)

        const code = yield* authorize(application.clientId, owner.id, team.id, { verifier: null })
        const client = { clientId: application.clientId, clientSecret }
        const tokens = yield* oauth.exchangeCode(client, { code, redirectUri: REDIRECT, codeVerifier: undefined })
        assert.strictEqual(tokens.scope, "users.read teams.read")
        const wrong = { clientId: application.clientId, clientSecret: `${clientSecret}x` }
        const again = yield* authorize(application.clientId, owner.id, team.id, { verifier: null })
        assert.strictEqual(
          yield* failureOf(oauth.exchangeCode(wrong, { code: again, redirectUri: REDIRECT, codeVerifier: undefined })),
          "invalid_client"
        )
      })
    )

    it.effect("rotating the secret stops the old one at once; a public client has no secret to rotate", () =>
      Effect.gen(function* () {
        const apps = yield* OAuthApplications
        const oauth = yield* OAuth
        const { team, owner } = yield* newTeam
        const { application, clientSecret: old } = yield* apps.create(team.id, DETAILS)
        const rotated = yield* apps.rotateSecret(team.id, application.id)
        assert.notStrictEqual(rotated.clientSecret, old)
        assert.strictEqual(rotated.application.clientSecretHash, yield* hashSecret(rotated.clientSecret))
        const exchange = (clientSecret: string) =>
          Effect.flatMap(authorize(application.clientId, owner.id, team.id, { verifier: null }), (code) =>
            oauth.exchangeCode(
              { clientId: application.clientId, clientSecret },
              { code, redirectUri: REDIRECT, codeVerifier: undefined }
            )
          )
        assert.strictEqual(yield* failureOf(exchange(old)), "invalid_client")
        assert.match((yield* exchange(rotated.clientSecret)).accessToken, /^mid_access_token_/)

        const { application: publicApp } = yield* registerPublic()
        yield* authorize(publicApp.clientId, owner.id, team.id)
        assert.strictEqual(yield* tagOf(apps.rotateSecret(team.id, publicApp.id)), "OAuthApplicationPublic")
      })
    )

    it.effect("a team lists only its own applications, newest first, and cannot reach another team's", () =>
      Effect.gen(function* () {
        const apps = yield* OAuthApplications
        const { team } = yield* newTeam
        const other = yield* newTeam
        const first = (yield* apps.create(team.id, DETAILS)).application
        const second = (yield* apps.create(team.id, { ...DETAILS, name: "Second" })).application
        const theirs = (yield* apps.create(other.team.id, DETAILS)).application
        const page = yield* pageRequest(undefined, 1)
        const one = toPage(page, yield* apps.list(team.id, page))
        assert.deepStrictEqual(
          one.data.map((a) => a.id),
          [second.id]
        )
        const next = yield* pageRequest(one.meta.cursor!, 1)
        const two = toPage(next, yield* apps.list(team.id, next))
        assert.deepStrictEqual(
          two.data.map((a) => a.id),
          [first.id]
        )
        assert.isFalse(two.meta.hasNextPage)
        const tags = yield* Effect.all([
          tagOf(apps.get(team.id, theirs.id)),
          tagOf(apps.update(team.id, theirs.id, { name: "Mine now" })),
          tagOf(apps.rotateSecret(team.id, theirs.id)),
          tagOf(apps.setStatus(team.id, theirs.id, "pending")),
          tagOf(apps.get(team.id, crypto.randomUUID()))
        ])
        assert.deepStrictEqual(tags, Array(5).fill("OAuthApplicationNotFound"))
        assert.strictEqual((yield* apps.get(other.team.id, theirs.id)).name, DETAILS.name, "unchanged")
      })
    )

    it.effect("an update changes only the given fields, and the next authorization follows the new redirect URIs", () =>
      Effect.gen(function* () {
        const apps = yield* OAuthApplications
        const { team, owner } = yield* newTeam
        const { application } = yield* apps.create(team.id, DETAILS)
        const moved = "https://acme.example/oauth/callback"
        const updated = yield* apps.update(team.id, application.id, {
          name: "Books sync 2",
          description: null,
          redirectUris: [moved, moved],
          scopes: ["users.read"]
        })
        assert.deepInclude(updated, {
          ...DETAILS,
          name: "Books sync 2",
          description: null,
          redirectUris: [moved],
          scopes: ["users.read"],
          clientSecretHash: application.clientSecretHash,
          status: "draft"
        })
        assert.deepStrictEqual(yield* apps.get(team.id, application.id), updated)
        assert.strictEqual(
          yield* failureOf(authorize(application.clientId, owner.id, team.id, { verifier: null })),
          "invalid_request",
          "the old redirect URI is no longer registered"
        )
      })
    )

    it.effect("the review path: draft → pending → approved; other moves are refused naming both statuses", () =>
      Effect.gen(function* () {
        const apps = yield* OAuthApplications
        const { team } = yield* newTeam
        const { application } = yield* apps.create(team.id, DETAILS)
        const refused = yield* Effect.flip(apps.setStatus(team.id, application.id, "approved"))
        assert.deepInclude(refused, {
          _tag: "OAuthApplicationTransitionInvalid",
          status: "draft",
          requested: "approved"
        })
        assert.strictEqual((yield* apps.setStatus(team.id, application.id, "draft")).status, "draft", "no change")
        assert.strictEqual((yield* apps.setStatus(team.id, application.id, "pending")).status, "pending")
        assert.strictEqual((yield* apps.setStatus(team.id, application.id, "approved")).status, "approved")
        const back = yield* Effect.flip(apps.setStatus(team.id, application.id, "draft"))
        assert.deepInclude(back, { status: "approved", requested: "draft" })
        assert.strictEqual((yield* apps.setStatus(team.id, application.id, "rejected")).status, "rejected")
        assert.strictEqual((yield* apps.setStatus(team.id, application.id, "pending")).status, "pending")
      })
    )

    it.effect("other teams may authorize only an approved application, and nobody a rejected one", () =>
      Effect.gen(function* () {
        const apps = yield* OAuthApplications
        const { team, owner } = yield* newTeam
        const other = yield* newTeam
        const { application } = yield* apps.create(team.id, DETAILS)
        const byOther = authorize(application.clientId, other.owner.id, other.team.id, { verifier: null })
        assert.strictEqual(yield* failureOf(byOther), "unauthorized_client")
        yield* apps.setStatus(team.id, application.id, "pending")
        assert.strictEqual(yield* failureOf(byOther), "unauthorized_client")
        yield* apps.setStatus(team.id, application.id, "approved")
        assert.isString(yield* byOther)
        yield* apps.setStatus(team.id, application.id, "rejected")
        assert.strictEqual(yield* failureOf(byOther), "unauthorized_client")
        assert.strictEqual(
          yield* failureOf(authorize(application.clientId, owner.id, team.id, { verifier: null })),
          "unauthorized_client"
        )
      })
    )

    it.effect("a concurrent approval and withdrawal (back to draft) of a pending application: exactly one wins", () =>
      Effect.gen(function* () {
        const apps = yield* OAuthApplications
        const { team } = yield* newTeam
        for (let round = 0; round < 5; round++) {
          const { application } = yield* apps.create(team.id, DETAILS)
          yield* apps.setStatus(team.id, application.id, "pending")
          const results = yield* Effect.all(
            [
              Effect.result(apps.setStatus(team.id, application.id, "approved")),
              Effect.result(apps.setStatus(team.id, application.id, "draft"))
            ],
            { concurrency: "unbounded" }
          )
          const wins = results.flatMap((r) => (r._tag === "Success" ? [r.success.status] : []))
          assert.strictEqual(wins.length, 1)
          assert.strictEqual((yield* apps.get(team.id, application.id)).status, wins[0])
        }
      })
    )
  })
