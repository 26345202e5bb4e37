import { Context, Effect, Layer, Option, Schema } from "effect"
import { AuditLogRepo, auditDraft } from "../audit/index.ts"
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
import { type SpendingKey, SpendingKeyId, spendingKeyView, type TeamApiKey, teamApiKeyView } from "./AgentKey.ts"
import type { AgentCredentials } from "./Credentials.ts"
import { MAX_POLICY_BYTES, type PolicyVersion, policyBytes, policyVersionView } from "./PolicyVersion.ts"
import type { AgentPrincipal } from "./Principals.ts"

/** The key does not exist in this team, or is revoked. */
export class KeyNotFound extends Schema.TaggedError<KeyNotFound>()("KeyNotFound", { keyId: Schema.String }) {}

/** The account given for a spending key is not a spend account of the team in the key's mode. */
export class KeyAccountInvalid extends Schema.TaggedError<KeyAccountInvalid>()("KeyAccountInvalid", {
  accountId: Schema.String,
  message: Schema.String
}) {}

/** A policy is larger than `MAX_POLICY_BYTES` as compact JSON; nothing of it was applied. */
export class PolicyTooLarge extends Schema.TaggedError<PolicyTooLarge>()("PolicyTooLarge", {
  bytes: Schema.Int,
  limit: Schema.Int
}) {}

/** Who changes a policy and when, and the id its new version gets; the repository numbers the version. */
export interface PolicyChange {
  readonly versionId: string
  readonly by: UserId | null
  readonly at: string
}

/** Storage of agent keys; only hashes of secrets are stored. */
export class AgentKeysRepo extends Context.Service<
  AgentKeysRepo,
  {
    /** Stores a key with its policy's first version (`key.policyVersion` is 1). */
    readonly insertSpendingKey: (
      key: SpendingKey,
      secretHash: string,
      version: PolicyVersion
    ) => Effect.Effect<void, PersistenceUnavailable>
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
    /** Replaces a live key's policy and stores it as the key's next version, at once; none when no such live key. */
    readonly updatePolicy: (
      teamId: TeamId,
      id: string,
      policy: SpendPolicy,
      change: PolicyChange
    ) => Effect.Effect<
      Option.Option<{ readonly key: SpendingKey; readonly version: PolicyVersion }>,
      PersistenceUnavailable
    >
    /** Marks a key revoked; false when there was no live key with that id in the team. */
    readonly revoke: (
      teamId: TeamId,
      kind: "spending_key" | "team_key",
      id: string,
      at: string
    ) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly teamPolicy: (teamId: TeamId) => Effect.Effect<SpendPolicy, PersistenceUnavailable>
    /** The team's default policy with its version (null when never set), read together. */
    readonly versionedTeamPolicy: (
      teamId: TeamId
    ) => Effect.Effect<{ readonly policy: SpendPolicy; readonly version: number | null }, PersistenceUnavailable>
    /** Replaces the team's default policy and stores it as the team's next version, at once. */
    readonly setTeamPolicy: (
      teamId: TeamId,
      policy: SpendPolicy,
      change: PolicyChange
    ) => Effect.Effect<PolicyVersion, PersistenceUnavailable>
    /** Every version of a key's policy and of its team's defaults, newest first. */
    readonly policyVersions: (
      teamId: TeamId,
      spendingKeyId: string
    ) => Effect.Effect<ReadonlyArray<PolicyVersion>, PersistenceUnavailable>
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
      KeyAccountInvalid | PolicyTooLarge | PersistenceUnavailable
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
    /** Replaces a live key's policy as its next version, audited; `by` is the member who changes it. */
    readonly updatePolicy: (
      teamId: TeamId,
      id: string,
      policy: SpendPolicy,
      by?: UserId | null
    ) => Effect.Effect<SpendingKey, KeyNotFound | PolicyTooLarge | PersistenceUnavailable>
    readonly revoke: (
      teamId: TeamId,
      kind: "spending_key" | "team_key",
      id: string,
      by?: UserId | null
    ) => Effect.Effect<void, KeyNotFound | PersistenceUnavailable>
    readonly teamPolicy: AgentKeysRepo["Service"]["teamPolicy"]
    /** Replaces the team's default policy as its next version, audited; `by` is the member who changes it. */
    readonly setTeamPolicy: (
      teamId: TeamId,
      policy: SpendPolicy,
      by?: UserId | null
    ) => Effect.Effect<PolicyVersion, PolicyTooLarge | PersistenceUnavailable>
    /** Every version of a key's policy (revoked keys included) and of its team's defaults, newest first. */
    readonly policyVersions: (
      teamId: TeamId,
      spendingKeyId: string
    ) => Effect.Effect<ReadonlyArray<PolicyVersion>, KeyNotFound | PersistenceUnavailable>
    /** The agent behind a raw key; none when unknown or revoked (revocation applies to the next request). */
    readonly authenticate: AgentCredentials["Service"]["authenticate"]
  }
>()("@svc/domain/AgentKeys") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* AgentKeysRepo
    const ledger = yield* Ledger
    const transactor = yield* Transactor
    const audit = yield* AuditLogRepo

    const checkedSize = (policy: SpendPolicy) => {
      const bytes = policyBytes(policy)
      return bytes > MAX_POLICY_BYTES
        ? Effect.fail(new PolicyTooLarge({ bytes, limit: MAX_POLICY_BYTES }))
        : Effect.void
    }

    const versionCreated = (version: PolicyVersion, mode: Mode | null) =>
      auditDraft(version.teamId, {
        type: "policy_version.created",
        mode,
        at: version.createdAt,
        data: { ...policyVersionView(version) }
      })

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
      yield* checkedSize(input.policy)
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
        policy: input.policy,
        policyVersion: 1
      }
      const version: PolicyVersion = {
        id: yield* newIdText,
        teamId: key.teamId,
        subject: "spending_key",
        spendingKeyId: key.id,
        version: 1,
        policy: key.policy,
        createdBy: key.createdBy,
        createdAt: key.createdAt
      }
      const secretHash = yield* hashSecret(secret)
      const entries = [
        yield* auditDraft(key.teamId, {
          type: "spending_key.created",
          mode: key.mode,
          at: key.createdAt,
          data: { ...spendingKeyView(key), createdBy: key.createdBy }
        }),
        yield* versionCreated(version, key.mode)
      ] as const
      yield* transactor.withTransaction(
        Effect.andThen(repo.insertSpendingKey(key, secretHash, version), audit.append(entries))
      )
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
      const secretHash = yield* hashSecret(secret)
      const entry = yield* auditDraft(key.teamId, {
        type: "team_api_key.created",
        mode: key.mode,
        at: key.createdAt,
        data: { ...teamApiKeyView(key), createdBy: key.createdBy }
      })
      yield* transactor.withTransaction(Effect.andThen(repo.insertTeamKey(key, secretHash), audit.append([entry])))
      return { key, secret }
    })

    const updatePolicy = Effect.fn("AgentKeys.updatePolicy")(function* (
      teamId: TeamId,
      id: string,
      policy: SpendPolicy,
      by?: UserId | null
    ) {
      yield* checkedSize(policy)
      const change: PolicyChange = { versionId: yield* newIdText, by: by ?? null, at: yield* nowIso }
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          const updated = yield* repo.updatePolicy(teamId, id, policy, change)
          if (Option.isNone(updated)) return yield* new KeyNotFound({ keyId: id })
          const { key, version } = updated.value
          yield* audit.append([yield* versionCreated(version, key.mode)])
          return key
        })
      )
    })

    const revoke = Effect.fn("AgentKeys.revoke")(function* (
      teamId: TeamId,
      kind: "spending_key" | "team_key",
      id: string,
      by?: UserId | null
    ) {
      const at = yield* nowIso
      const entry = yield* auditDraft(teamId, {
        type: kind === "spending_key" ? "spending_key.revoked" : "team_api_key.revoked",
        mode: null,
        at,
        data: { keyId: id, revokedBy: by ?? null }
      })
      yield* transactor.withTransaction(
        Effect.gen(function* () {
          const done = yield* repo.revoke(teamId, kind, id, at)
          if (!done) return yield* new KeyNotFound({ keyId: id })
          yield* audit.append([entry])
        })
      )
    })

    const setTeamPolicy = Effect.fn("AgentKeys.setTeamPolicy")(function* (
      teamId: TeamId,
      policy: SpendPolicy,
      by?: UserId | null
    ) {
      yield* checkedSize(policy)
      const change: PolicyChange = { versionId: yield* newIdText, by: by ?? null, at: yield* nowIso }
      return yield* transactor.withTransaction(
        Effect.gen(function* () {
          const version = yield* repo.setTeamPolicy(teamId, policy, change)
          yield* audit.append([yield* versionCreated(version, null)])
          return version
        })
      )
    })

    const policyVersions = Effect.fn("AgentKeys.policyVersions")(function* (teamId: TeamId, spendingKeyId: string) {
      const keys = yield* repo.listSpendingKeys(teamId)
      if (!keys.some((k) => k.id === spendingKeyId)) return yield* new KeyNotFound({ keyId: spendingKeyId })
      return yield* repo.policyVersions(teamId, spendingKeyId)
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
                policy: f.key.policy,
                policyVersion: f.key.policyVersion
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
      setTeamPolicy,
      policyVersions,
      authenticate
    })
  })
  static readonly layer = Layer.effect(AgentKeys, AgentKeys.make)
}
