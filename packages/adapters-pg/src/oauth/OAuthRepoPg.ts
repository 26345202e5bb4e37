import { AuthorizationCode, OAuthApplication, OAuthRepo, OAuthToken } from "@svc/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, deletedCount, orUnavailable } from "../shared/index.ts"

const APP_COLUMNS = `id, client_id, client_secret_hash, name, description, overview, developer_name, logo_url, website,
  install_url, screenshots, redirect_uris, scopes, grant_types, response_types, token_endpoint_auth_method, status,
  team_id, created_at`
const CODE_COLUMNS =
  "code_hash, grant_id, application_id, team_id, user_id, scopes, redirect_uri, code_challenge, expires_at, used_at, created_at"
const TOKEN_COLUMNS =
  "id, token_hash, kind, grant_id, application_id, team_id, user_id, scopes, expires_at, rotated_at, revoked_at, created_at"

const ClaimRow = Schema.Struct({ teamId: OAuthApplication.fields.teamId })

const json = (value: unknown) => JSON.stringify(value)

/** OAuthRepo on Postgres. */
export const OAuthRepoPg = Layer.effect(
  OAuthRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return OAuthRepo.of({
      insertApplication: (app) =>
        sql`INSERT INTO oauth_applications (${sql.literal(APP_COLUMNS)})
            VALUES (${app.id}, ${app.clientId}, ${app.clientSecretHash}, ${app.name}, ${app.description},
              ${app.overview}, ${app.developerName}, ${app.logoUrl}, ${app.website}, ${app.installUrl},
              ${json(app.screenshots)}::jsonb, ${json(app.redirectUris)}::jsonb,
              ${app.scopes === null ? null : json(app.scopes)}::jsonb, ${json(app.grantTypes)}::jsonb,
              ${json(app.responseTypes)}::jsonb, ${app.tokenEndpointAuthMethod}, ${app.status}, ${app.teamId},
              ${app.createdAt})`.pipe(Effect.asVoid, orUnavailable("oauth.insertApplication")),
      findApplicationByClientId: (clientId) =>
        sql`SELECT ${sql.literal(APP_COLUMNS)} FROM oauth_applications WHERE client_id = ${clientId}`.pipe(
          orUnavailable("oauth.findApplicationByClientId"),
          Effect.flatMap(decodeFirst(OAuthApplication, "oauth.findApplicationByClientId"))
        ),
      findApplication: (id) =>
        sql`SELECT ${sql.literal(APP_COLUMNS)} FROM oauth_applications WHERE id = ${id}`.pipe(
          orUnavailable("oauth.findApplication"),
          Effect.flatMap(decodeFirst(OAuthApplication, "oauth.findApplication"))
        ),
      claimApplication: (id, teamId) =>
        Effect.gen(function* () {
          yield* sql`UPDATE oauth_applications SET team_id = ${teamId} WHERE id = ${id} AND team_id IS NULL`
          return yield* sql`SELECT team_id FROM oauth_applications WHERE id = ${id}`
        }).pipe(
          orUnavailable("oauth.claimApplication"),
          Effect.flatMap(decodeFirst(ClaimRow, "oauth.claimApplication")),
          Effect.map(Option.match({ onNone: () => null, onSome: (row) => row.teamId }))
        ),
      listApplications: (teamId, page) =>
        sql`
          SELECT ${sql.literal(APP_COLUMNS)} FROM oauth_applications
          WHERE team_id = ${teamId} ${Option.match(page.after, {
            onNone: () => sql``,
            onSome: (p) => sql`AND (created_at, id) < (${p.createdAt}::timestamptz, ${p.id}::uuid)`
          })}
          ORDER BY created_at DESC, id DESC
          LIMIT ${page.limit + 1}`.pipe(
          orUnavailable("oauth.listApplications"),
          Effect.flatMap(decodeRows(OAuthApplication, "oauth.listApplications"))
        ),
      updateApplication: (id, f) =>
        sql`
          UPDATE oauth_applications SET name = ${f.name}, description = ${f.description}, overview = ${f.overview},
            developer_name = ${f.developerName}, logo_url = ${f.logoUrl}, website = ${f.website},
            install_url = ${f.installUrl}, screenshots = ${json(f.screenshots)}::jsonb,
            redirect_uris = ${json(f.redirectUris)}::jsonb, scopes = ${f.scopes === null ? null : json(f.scopes)}::jsonb
          WHERE id = ${id}
          RETURNING ${sql.literal(APP_COLUMNS)}`.pipe(
          orUnavailable("oauth.updateApplication"),
          Effect.flatMap(decodeFirst(OAuthApplication, "oauth.updateApplication"))
        ),
      replaceClientSecret: (id, clientSecretHash) =>
        sql`
          UPDATE oauth_applications SET client_secret_hash = ${clientSecretHash}
          WHERE id = ${id} AND client_secret_hash IS NOT NULL
          RETURNING ${sql.literal(APP_COLUMNS)}`.pipe(
          orUnavailable("oauth.replaceClientSecret"),
          Effect.flatMap(decodeFirst(OAuthApplication, "oauth.replaceClientSecret"))
        ),
      transitionApplication: (id, from, to) =>
        sql`
          UPDATE oauth_applications SET status = ${to} WHERE id = ${id} AND status = ${from}
          RETURNING ${sql.literal(APP_COLUMNS)}`.pipe(
          orUnavailable("oauth.transitionApplication"),
          Effect.flatMap(decodeFirst(OAuthApplication, "oauth.transitionApplication"))
        ),
      insertCode: (code) =>
        sql`INSERT INTO oauth_authorization_codes (${sql.literal(CODE_COLUMNS)})
            VALUES (${code.codeHash}, ${code.grantId}, ${code.applicationId}, ${code.teamId}, ${code.userId},
              ${json(code.scopes)}::jsonb, ${code.redirectUri}, ${code.codeChallenge}, ${code.expiresAt},
              ${code.usedAt}, ${code.createdAt})`.pipe(Effect.asVoid, orUnavailable("oauth.insertCode")),
      findCode: (codeHash) =>
        sql`SELECT ${sql.literal(CODE_COLUMNS)} FROM oauth_authorization_codes WHERE code_hash = ${codeHash}`.pipe(
          orUnavailable("oauth.findCode"),
          Effect.flatMap(decodeFirst(AuthorizationCode, "oauth.findCode"))
        ),
      consumeCode: (codeHash, now) =>
        sql`UPDATE oauth_authorization_codes SET used_at = ${now}
            WHERE code_hash = ${codeHash} AND used_at IS NULL RETURNING code_hash`.pipe(
          Effect.map((rows) => rows.length === 1),
          orUnavailable("oauth.consumeCode")
        ),
      insertToken: (token) =>
        sql`INSERT INTO oauth_tokens (${sql.literal(TOKEN_COLUMNS)})
            VALUES (${token.id}, ${token.tokenHash}, ${token.kind}, ${token.grantId}, ${token.applicationId},
              ${token.teamId}, ${token.userId}, ${json(token.scopes)}::jsonb, ${token.expiresAt}, ${token.rotatedAt},
              ${token.revokedAt}, ${token.createdAt})`.pipe(Effect.asVoid, orUnavailable("oauth.insertToken")),
      findToken: (tokenHash) =>
        sql`SELECT ${sql.literal(TOKEN_COLUMNS)} FROM oauth_tokens WHERE token_hash = ${tokenHash}`.pipe(
          orUnavailable("oauth.findToken"),
          Effect.flatMap(decodeFirst(OAuthToken, "oauth.findToken"))
        ),
      rotateRefreshToken: (id, now) =>
        sql`UPDATE oauth_tokens SET rotated_at = ${now}
            WHERE id = ${id} AND kind = 'refresh' AND rotated_at IS NULL AND revoked_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          orUnavailable("oauth.rotateRefreshToken")
        ),
      revokeToken: (id, now) =>
        sql`UPDATE oauth_tokens SET revoked_at = ${now} WHERE id = ${id} AND revoked_at IS NULL`.pipe(
          Effect.asVoid,
          orUnavailable("oauth.revokeToken")
        ),
      revokeGrant: (grantId, now) =>
        sql`UPDATE oauth_tokens SET revoked_at = ${now} WHERE grant_id = ${grantId} AND revoked_at IS NULL`.pipe(
          Effect.asVoid,
          orUnavailable("oauth.revokeGrant")
        ),
      purgeExpiredBefore: (cutoff) =>
        Effect.all([
          deletedCount(sql, sql`DELETE FROM oauth_authorization_codes WHERE expires_at < ${cutoff}`),
          deletedCount(sql, sql`DELETE FROM oauth_tokens WHERE expires_at < ${cutoff}`)
        ]).pipe(
          Effect.map(([codes, tokens]) => codes + tokens),
          orUnavailable("oauth.purgeExpiredBefore")
        )
    })
  })
)
