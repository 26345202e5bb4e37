import {
  type AccountId,
  AgentKeys,
  type PolicyTooLarge,
  policyVersionView,
  spendingKeyView,
  Teams,
  teamApiKeyView
} from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { badRequest, CurrentUser, notFound } from "../../api/shared/index.ts"
import { currentTeamAsAdmin as adminTeamOf, listPaging, orServiceUnavailable } from "../shared/index.ts"

const policyTooLarge = (e: PolicyTooLarge) => {
  const message = `the policy is ${e.bytes} bytes of JSON; at most ${e.limit} are allowed`
  return Effect.fail(badRequest("validation_failed", message, [{ path: "policy", message }]))
}

export const AgentKeysHttp = HttpApiBuilder.group(Api, "agentKeys", (handlers) =>
  Effect.gen(function* () {
    const { pageOfList } = yield* listPaging
    const keys = yield* AgentKeys
    const currentTeamAsAdmin = adminTeamOf(yield* Teams)
    const revoke = (kind: "spending_key" | "team_key", id: string) =>
      Effect.gen(function* () {
        const { team } = yield* currentTeamAsAdmin
        const user = yield* CurrentUser
        yield* keys.revoke(team.id, kind, id, user.id)
        return { id, revoked: true as const }
      }).pipe(
        Effect.catchTag("KeyNotFound", () => Effect.fail(notFound(`no live key ${id}`))),
        orServiceUnavailable
      )

    return handlers
      .handle("createSpendingKey", ({ payload }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          const user = yield* CurrentUser
          const { key, secret } = yield* keys.issueSpendingKey({
            teamId: team.id,
            createdBy: user.id,
            name: payload.name,
            mode: payload.mode,
            accountId: payload.accountId as AccountId | undefined,
            policy: payload.policy
          })
          return { ...spendingKeyView(key), secret }
        }).pipe(
          Effect.catchTag("KeyAccountInvalid", (e) =>
            Effect.fail(badRequest("validation_failed", e.message, [{ path: "accountId", message: e.message }]))
          ),
          Effect.catchTag("PolicyTooLarge", policyTooLarge),
          orServiceUnavailable
        )
      )
      .handle("listSpendingKeys", ({ query }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return yield* pageOfList(
            `spending-keys:${team.id}`,
            query,
            yield* keys.listSpendingKeys(team.id),
            spendingKeyView
          )
        }).pipe(orServiceUnavailable)
      )
      .handle("updateSpendingKey", ({ params, payload }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          const user = yield* CurrentUser
          return spendingKeyView(yield* keys.updatePolicy(team.id, params.id, payload.policy, user.id))
        }).pipe(
          Effect.catchTag("KeyNotFound", () => Effect.fail(notFound(`no live spending key ${params.id}`))),
          Effect.catchTag("PolicyTooLarge", policyTooLarge),
          orServiceUnavailable
        )
      )
      .handle("listPolicyVersions", ({ params, query }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return yield* pageOfList(
            `policy-versions:${team.id}:${params.id}`,
            query,
            yield* keys.policyVersions(team.id, params.id),
            policyVersionView
          )
        }).pipe(
          Effect.catchTag("KeyNotFound", () => Effect.fail(notFound(`no spending key ${params.id}`))),
          orServiceUnavailable
        )
      )
      .handle("revokeSpendingKey", ({ params }) => revoke("spending_key", params.id))
      .handle("createTeamApiKey", ({ payload }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          const user = yield* CurrentUser
          const { key, secret } = yield* keys.issueTeamKey({
            teamId: team.id,
            createdBy: user.id,
            name: payload.name,
            mode: payload.mode,
            scopes: payload.scopes
          })
          return { ...teamApiKeyView(key), secret }
        }).pipe(orServiceUnavailable)
      )
      .handle("listTeamApiKeys", ({ query }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return yield* pageOfList(`team-api-keys:${team.id}`, query, yield* keys.listTeamKeys(team.id), teamApiKeyView)
        }).pipe(orServiceUnavailable)
      )
      .handle("revokeTeamApiKey", ({ params }) => revoke("team_key", params.id))
      .handle("getSpendPolicy", () =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return { policy: yield* keys.teamPolicy(team.id) }
        }).pipe(orServiceUnavailable)
      )
      .handle("setSpendPolicy", ({ payload }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          const user = yield* CurrentUser
          yield* keys.setTeamPolicy(team.id, payload.policy, user.id)
          return { policy: payload.policy }
        }).pipe(Effect.catchTag("PolicyTooLarge", policyTooLarge), orServiceUnavailable)
      )
  })
)
