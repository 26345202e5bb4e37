import { Context, Effect, Layer, Option, Schema } from "effect"
import { Ledger } from "../ledger/index.ts"
import {
  type AccountId,
  generateSecret,
  hashSecret,
  type Mode,
  newId,
  newIdText,
  nowIso,
  type PersistenceUnavailable,
  type TeamId,
  Transactor,
  type UserId
} from "../shared/index.ts"
import type { SpendPolicy } from "../spend/model.ts"
import { type SpendingKey, SpendingKeyId, type TeamApiKey } from "./AgentKey.ts"
import { AgentCredentials } from "./Credentials.ts"
import type { AgentPrincipal } from "./Principals.ts"

/** The key does not exist in this team, or is revoked. */
export class KeyNotFound extends Schema.TaggedError<KeyNotFound>()("KeyNotFound", { keyId: Schema.String }) {}

/** The account given for a spending key is not a spend account of the team in the key's mode. */
export class KeyAccountInvalid extends Schema.TaggedError<KeyAccountInvalid>()("KeyAccountInvalid", {
  accountId: Schema.String,
  message: Schema.String
}) {}

/** Storage of agent keys; only hashes of secrets are stored. */
export class AgentKeysRepo extends Context.Service<
  AgentKeysRepo,
  {
    readonly insertSpendingKey: (key: SpendingKey, secretHash: string) => Effect.Effect<void, PersistenceUnavailable>
    readonly insertTeamKey: (key: TeamApiKey, secretHash: string) => Effect.Effect<void, PersistenceUnavailable>
    /** The live (unrevoked) key whose secret hashes to this value. */
    readonly findBySecretHash: (
      hash: string
    ) => Effect.Effect<
      Option.Option<
        | { readonly kind: "spending_key"; readonly key: SpendingKey }
        | { readonly kind: "team_key"; readonly key: TeamApiKey }
      >,
      PersistenceUnavailable
    >
    readonly listSpendingKeys: (teamId: TeamId) => Effect.Effect<ReadonlyArray<SpendingKey>, PersistenceUnavailable>
    readonly listTeamKeys: (teamId: TeamId) => Effect.Effect<ReadonlyArray<TeamApiKey>, PersistenceUnavailable>
    readonly updatePolicy: (
      teamId: TeamId,
      id: string,
      policy: SpendPolicy
    ) => Effect.Effect<Option.Option<SpendingKey>, PersistenceUnavailable>
    /** Marks a key revoked; false when there was no live key with that id in the team. */
    readonly revoke: (
      teamId: TeamId,
      kind: "spending_key" | "team_key",
      id: string,
      at: string
    ) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly teamPolicy: (teamId: TeamId) => Effect.Effect<SpendPolicy, PersistenceUnavailable>
    readonly setTeamPolicy: (teamId: TeamId, policy: SpendPolicy) => Effect.Effect<void, PersistenceUnavailable>
  }
>()("@svc/domain/AgentKeysRepo") {}

const SPENDING_PREFIX: Record<Mode, string> = { live: "svc_", test: "svc_test_" }
const TEAM_KEY_PREFIX = "svcteam_"

const displayOf = (secret: string, prefix: string) => `${secret.slice(0, prefix.length + 4)}…`

/** Spending keys and team API keys: issued with their secret shown once, stored hashed, revocable at once. */
export class AgentKeys extends Context.Service<
  AgentKeys,
  {
    readonly issueSpendingKey: (input: {
      readonly teamId: TeamId
      readonly createdBy: UserId
      readonly name: string
      readonly mode: Mode
      readonly accountId?: AccountId | undefined
      readonly policy: SpendPolicy
    }) => Effect.Effect<
      { readonly key: SpendingKey; readonly secret: string },
      KeyAccountInvalid | PersistenceUnavailable
    >
    readonly issueTeamKey: (input: {
      readonly teamId: TeamId
      readonly createdBy: UserId
      readonly name: string
      readonly mode: Mode
      readonly scopes: ReadonlyArray<string>
    }) => Effect.Effect<{ readonly key: TeamApiKey; readonly secret: string }, PersistenceUnavailable>
    readonly listSpendingKeys: AgentKeysRepo["Service"]["listSpendingKeys"]
    readonly listTeamKeys: AgentKeysRepo["Service"]["listTeamKeys"]
    readonly updatePolicy: (
      teamId: TeamId,
      id: string,
      policy: SpendPolicy
    ) => Effect.Effect<SpendingKey, KeyNotFound | PersistenceUnavailable>
    readonly revoke: (
      teamId: TeamId,
      kind: "spending_key" | "team_key",
      id: string
    ) => Effect.Effect<void, KeyNotFound | PersistenceUnavailable>
    readonly teamPolicy: AgentKeysRepo["Service"]["teamPolicy"]
    readonly setTeamPolicy: AgentKeysRepo["Service"]["setTeamPolicy"]
    /** The agent behind a raw key; none when unknown or revoked (revocation applies to the next request). */
    readonly authenticate: AgentCredentials["Service"]["authenticate"]
  }
>()("@svc/domain/AgentKeys") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* AgentKeysRepo
    const ledger = yield* Ledger
    const transactor = yield* Transactor

    const issueSpendingKey = Effect.fn("AgentKeys.issueSpendingKey")(function* (input: {
      readonly teamId: TeamId
      readonly createdBy: UserId
      readonly name: string
      readonly mode: Mode
      readonly accountId?: AccountId | undefined
      readonly policy: SpendPolicy
    }) {
      const spendAccounts = yield* ledger.accounts(input.teamId, { mode: input.mode, kind: "spend" })
      const account =
        input.accountId === undefined ? spendAccounts[0] : spendAccounts.find((a) => a.id === input.accountId)
      if (account === undefined) {
        return yield* new KeyAccountInvalid({
          accountId: input.accountId ?? "",
          message: `no ${input.mode} spend account ${input.accountId ?? ""} in this team`.replace(/ +/gu, " ").trim()
        })
      }
      const secret = yield* generateSecret(SPENDING_PREFIX[input.mode])
      const key: SpendingKey = {
        id: yield* newId(SpendingKeyId),
        teamId: input.teamId,
        mode: input.mode,
        name: input.name,
        displayPrefix: displayOf(secret, SPENDING_PREFIX[input.mode]),
        createdBy: input.createdBy,
        createdAt: yield* nowIso,
        revokedAt: null,
        accountId: account.id,
        policy: input.policy
      }
      yield* repo.insertSpendingKey(key, yield* hashSecret(secret))
      return { key, secret }
    })

    const issueTeamKey = Effect.fn("AgentKeys.issueTeamKey")(function* (input: {
      readonly teamId: TeamId
      readonly createdBy: UserId
      readonly name: string
      readonly mode: Mode
      readonly scopes: ReadonlyArray<string>
    }) {
      const secret = yield* generateSecret(TEAM_KEY_PREFIX)
      const key: TeamApiKey = {
        id: yield* newIdText,
        teamId: input.teamId,
        mode: input.mode,
        name: input.name,
        displayPrefix: displayOf(secret, TEAM_KEY_PREFIX),
        createdBy: input.createdBy,
        createdAt: yield* nowIso,
        revokedAt: null,
        scopes: [...new Set(input.scopes)]
      }
      yield* repo.insertTeamKey(key, yield* hashSecret(secret))
      return { key, secret }
    })

    const updatePolicy = Effect.fn("AgentKeys.updatePolicy")(function* (
      teamId: TeamId,
      id: string,
      policy: SpendPolicy
    ) {
      const updated = yield* repo.updatePolicy(teamId, id, policy)
      return yield* Option.match(updated, {
        onNone: () => Effect.fail(new KeyNotFound({ keyId: id })),
        onSome: Effect.succeed
      })
    })

    const revoke = Effect.fn("AgentKeys.revoke")(function* (
      teamId: TeamId,
      kind: "spending_key" | "team_key",
      id: string
    ) {
      const done = yield* transactor.withTransaction(repo.revoke(teamId, kind, id, yield* nowIso))
      if (!done) return yield* new KeyNotFound({ keyId: id })
    })

    const authenticate = Effect.fn("AgentKeys.authenticate")(function* (raw: string) {
      if (!raw.startsWith("svc_") && !raw.startsWith(TEAM_KEY_PREFIX)) return Option.none<AgentPrincipal>()
      const found = yield* repo.findBySecretHash(yield* hashSecret(raw))
      return Option.map(
        found,
        (f): AgentPrincipal =>
          f.kind === "spending_key"
            ? {
                kind: f.kind,
                keyId: f.key.id,
                teamId: f.key.teamId,
                mode: f.key.mode,
                accountId: f.key.accountId,
                scopes: null,
                policy: f.key.policy
              }
            : {
                kind: f.kind,
                keyId: f.key.id,
                teamId: f.key.teamId,
                mode: f.key.mode,
                accountId: null,
                scopes: f.key.scopes,
                policy: null
              }
      )
    })

    return AgentKeys.of({
      issueSpendingKey,
      issueTeamKey,
      listSpendingKeys: repo.listSpendingKeys,
      listTeamKeys: repo.listTeamKeys,
      updatePolicy,
      revoke,
      teamPolicy: repo.teamPolicy,
      setTeamPolicy: repo.setTeamPolicy,
      authenticate
    })
  })
  static readonly layer = Layer.effect(AgentKeys, AgentKeys.make)
}

/** The AgentCredentials port answered by agent keys. */
export const AgentCredentialsFromKeys = Layer.effect(
  AgentCredentials,
  Effect.gen(function* () {
    const keys = yield* AgentKeys
    return AgentCredentials.of({ authenticate: keys.authenticate })
  })
)
