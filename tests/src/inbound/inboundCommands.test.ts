import { assert, describe, it } from "@effect/vitest"
import { FileStorageMemory, PortsMemory, SimulatedCardIssuer } from "@svc/adapters-memory"
import {
  type AccountId,
  BankConnectionChanged,
  BankConnectionsRepo,
  CardAuthorizations,
  DepositReceived,
  type InboundCommand,
  InboundCommands,
  Inbox,
  InboxEmailReceived,
  InboxItemsRepo,
  KycDecisionReceived,
  Ledger,
  ManagedEntitiesRepo,
  PlanChanged,
  SubscriptionEnded,
  TeamId,
  TeamOpening,
  TeamPlansRepo,
  Teams,
  teamOfInboxAddress,
  UserId
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { unverifiedEntity } from "./InboundSetup.ts"

const DomainMemory = InboundCommands.layer.pipe(
  Layer.provideMerge(CardAuthorizations.layer.pipe(Layer.provide(SimulatedCardIssuer))),
  Layer.provideMerge(Inbox.layer.pipe(Layer.provideMerge(FileStorageMemory))),
  Layer.provideMerge(Layer.mergeAll(Teams.layer, TeamOpening.layer)),
  Layer.provideMerge(Ledger.layer),
  Layer.provideMerge(PortsMemory)
)

const newTeam = Effect.gen(function* () {
  const opening = yield* TeamOpening
  const team = yield* opening.open(
    { id: UserId.make(crypto.randomUUID()), email: "owner@example.com", fullName: null },
    { name: "Acme" }
  )
  return team.id
})

const liveAccounts = (teamId: TeamId) =>
  Ledger.use((ledger) => ledger.accounts(teamId, { mode: "live", kind: "spend" }))

const postedOf = (teamId: TeamId, accountId?: AccountId) =>
  Effect.map(liveAccounts(teamId), (accounts) =>
    accounts.filter((a) => accountId === undefined || a.id === accountId).reduce((sum, a) => sum + a.balance.posted, 0)
  )

const depositOf = (teamId: TeamId, fields: Partial<ConstructorParameters<typeof DepositReceived>[0]> = {}) =>
  new DepositReceived({
    provider: "banking-a",
    providerEventId: "dep_1",
    teamId,
    accountId: null,
    amountMinor: 2500,
    currency: "USD",
    ...fields
  })

const handle = (command: InboundCommand) => InboundCommands.use((c) => c.handle(command))

/** The refusal a command meets: its reason's tag and fields, its message, and whether a retry may help. */
const refusalOf = (command: InboundCommand) =>
  Effect.gen(function* () {
    const error = yield* Effect.flip(handle(command))
    assert.strictEqual(error._tag, "InboundCommandRefused", JSON.stringify(error))
    if (error._tag !== "InboundCommandRefused") return yield* Effect.die(error)
    return error
  })

describe("InboundCommands (memory)", () => {
  describe("DepositReceived", () => {
    it.effect("credits the team's live spend account once, however often and concurrently it is applied", () =>
      Effect.gen(function* () {
        const teamId = yield* newTeam
        yield* handle(depositOf(teamId))
        yield* handle(depositOf(teamId))
        yield* Effect.all(
          Array.from({ length: 8 }, () => handle(depositOf(teamId))),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(yield* postedOf(teamId), 2500)
        const ledger = yield* Ledger
        const [account] = yield* liveAccounts(teamId)
        const deposits = yield* ledger.transactions(
          teamId,
          { accountId: account!.id, mode: "live" },
          { after: Option.none(), limit: 50 }
        )
        assert.strictEqual(deposits.length, 1, "one ledger transaction")
      }).pipe(Effect.provide(DomainMemory))
    )

    it.effect("counts the same provider event id once per provider, and other event ids again", () =>
      Effect.gen(function* () {
        const teamId = yield* newTeam
        yield* handle(depositOf(teamId))
        yield* handle(depositOf(teamId, { provider: "banking-b", amountMinor: 100 }))
        yield* handle(depositOf(teamId, { providerEventId: "dep_2", amountMinor: 400 }))
        yield* handle(depositOf(teamId, { providerEventId: "dep_2", amountMinor: 9999 }))
        assert.strictEqual(yield* postedOf(teamId), 3000, "a repeat with another amount changes nothing either")
      }).pipe(Effect.provide(DomainMemory))
    )

    it.effect("credits only the account it names, and refuses an account of another team or currency", () =>
      Effect.gen(function* () {
        const teamId = yield* newTeam
        const other = yield* newTeam
        const ledger = yield* Ledger
        const second = yield* ledger.openTeamAccounts({ teamId, mode: "live", name: "Second", currency: "USD" })
        const euros = yield* ledger.openTeamAccounts({ teamId, mode: "live", name: "Euros", currency: "EUR" })
        yield* handle(depositOf(teamId, { accountId: second.id }))
        assert.strictEqual(yield* postedOf(teamId, second.id), 2500)
        assert.strictEqual(yield* postedOf(teamId), 2500, "no other account moved")

        const [foreign] = yield* liveAccounts(other)
        const notOurs = yield* refusalOf(depositOf(teamId, { providerEventId: "dep_x", accountId: foreign!.id }))
        assert.deepInclude(notOurs.reason, { _tag: "DepositAccountNotFound", teamId, accountId: foreign!.id })
        const wrongCurrency = yield* refusalOf(depositOf(teamId, { providerEventId: "dep_y", accountId: euros.id }))
        assert.deepInclude(wrongCurrency.reason, { _tag: "DepositAccountNotFound", currency: "USD" })
        const noYen = yield* refusalOf(depositOf(teamId, { providerEventId: "dep_z", currency: "JPY" }))
        assert.deepInclude(noYen.reason, { _tag: "DepositAccountNotFound", currency: "JPY", accountId: null })
        assert.isFalse(noYen.retryable, "no account appears by retrying")
        assert.strictEqual(noYen.message, `no live JPY spend account  for team ${teamId}`)
        assert.strictEqual(yield* postedOf(teamId), 2500, "refusals move no money")
        assert.strictEqual(yield* postedOf(other), 0)
      }).pipe(Effect.provide(DomainMemory))
    )

    it.effect("refuses a deposit for an unknown team for good, without touching the ledger", () =>
      Effect.gen(function* () {
        const ghost = TeamId.make(crypto.randomUUID())
        const refused = yield* refusalOf(depositOf(ghost))
        assert.deepInclude(refused.reason, { _tag: "TeamNotFound", teamId: ghost })
        assert.isFalse(refused.retryable)
        assert.strictEqual(refused.message, `no team ${ghost}`)
        assert.deepStrictEqual(yield* Ledger.use((l) => l.accounts(ghost, {})), [])
      }).pipe(Effect.provide(DomainMemory))
    )
  })

  describe("KycDecisionReceived", () => {
    it.effect("sets the entity's status and provider; a repeat leaves it as it is", () =>
      Effect.gen(function* () {
        const teamId = yield* newTeam
        const entities = yield* ManagedEntitiesRepo
        const id = crypto.randomUUID()
        yield* entities.insert(unverifiedEntity(id, teamId))
        const decision = new KycDecisionReceived({ provider: "kyc-b", entityId: id, status: "approved" })
        yield* handle(decision)
        yield* handle(decision)
        const entity = Option.getOrThrow(yield* entities.find(id))
        assert.strictEqual(entity.kycStatus, "approved")
        assert.strictEqual(entity.kycProvider, "kyc-b")
        assert.isString(entity.kycUpdatedAt)
      }).pipe(Effect.provide(DomainMemory))
    )

    it.effect("refuses a decision on an unknown entity as retryable: the entity may be created after the event", () =>
      Effect.gen(function* () {
        const id = crypto.randomUUID()
        const refused = yield* refusalOf(
          new KycDecisionReceived({ provider: "kyc-d", entityId: id, status: "approved" })
        )
        assert.deepInclude(refused.reason, { _tag: "ManagedEntityNotFound", entityId: id })
        assert.isTrue(refused.retryable)
        assert.strictEqual(refused.message, `no managed entity ${id}`)
        assert.isTrue(Option.isNone(yield* ManagedEntitiesRepo.use((r) => r.find(id))))
      }).pipe(Effect.provide(DomainMemory))
    )
  })

  describe("PlanChanged and SubscriptionEnded", () => {
    it.effect("set the team's plan; an ended subscription falls back to the free plan", () =>
      Effect.gen(function* () {
        const teamId = yield* newTeam
        const plans = yield* TeamPlansRepo
        yield* handle(new PlanChanged({ teamId, plan: "pro", status: "active" }))
        assert.deepInclude(Option.getOrThrow(yield* plans.find(teamId)), { plan: "pro", status: "active" })
        yield* handle(new SubscriptionEnded({ teamId }))
        yield* handle(new SubscriptionEnded({ teamId }))
        assert.deepInclude(Option.getOrThrow(yield* plans.find(teamId)), { plan: "free", status: "canceled" })
      }).pipe(Effect.provide(DomainMemory))
    )

    it.effect("refuse an unknown team for good and store no plan for it", () =>
      Effect.gen(function* () {
        const ghost = TeamId.make(crypto.randomUUID())
        for (const command of [
          new PlanChanged({ teamId: ghost, plan: "pro", status: "active" }),
          new SubscriptionEnded({ teamId: ghost })
        ]) {
          const refused = yield* refusalOf(command)
          assert.deepInclude(refused.reason, { _tag: "TeamNotFound", teamId: ghost })
          assert.isFalse(refused.retryable)
        }
        assert.isTrue(Option.isNone(yield* TeamPlansRepo.use((p) => p.find(ghost))))
      }).pipe(Effect.provide(DomainMemory))
    )
  })

  describe("BankConnectionChanged", () => {
    it.effect("sets a known connection's status, and refuses an unknown one as retryable", () =>
      Effect.gen(function* () {
        const teamId = yield* newTeam
        const connections = yield* BankConnectionsRepo
        const now = new Date().toISOString()
        yield* connections.insert({
          id: crypto.randomUUID(),
          teamId,
          provider: "bank-aggregator-a",
          externalId: "item_1",
          status: "connected",
          createdAt: now,
          updatedAt: now
        })
        yield* handle(
          new BankConnectionChanged({ provider: "bank-aggregator-a", externalId: "item_1", status: "disconnected" })
        )
        const found = Option.getOrThrow(yield* connections.findByExternalId("bank-aggregator-a", "item_1"))
        assert.strictEqual(found.status, "disconnected")

        const elsewhere = yield* refusalOf(
          new BankConnectionChanged({ provider: "bank-aggregator-b", externalId: "item_1", status: "disconnected" })
        )
        assert.deepInclude(elsewhere.reason, {
          _tag: "BankConnectionNotFound",
          provider: "bank-aggregator-b",
          externalId: "item_1"
        })
        assert.isTrue(elsewhere.retryable)
        assert.strictEqual(elsewhere.message, "no bank connection item_1 on bank-aggregator-b")
      }).pipe(Effect.provide(DomainMemory))
    )
  })

  describe("InboxEmailReceived", () => {
    const mail = (recipient: string, messageId = "m-1") =>
      new InboxEmailReceived({
        messageId,
        sender: "billing@vendor.example",
        recipient,
        subject: "Invoice",
        textBody: "see attached",
        htmlBody: "",
        attachments: [
          {
            filename: "invoice.pdf",
            contentType: "application/pdf",
            size: 8,
            content: Buffer.from("%PDF-1.4").toString("base64")
          }
        ]
      })

    it.effect("files the e-mail once for the team that owns the address", () =>
      Effect.gen(function* () {
        const teamId = yield* newTeam
        yield* handle(mail(`Invoices <bills+${teamId.toUpperCase()}@inbox.svc.test>`))
        yield* handle(mail(`Invoices <bills+${teamId.toUpperCase()}@inbox.svc.test>`))
        const items = yield* InboxItemsRepo.use((inbox) =>
          inbox.list(teamId, null, { after: Option.none(), limit: 100 })
        )
        assert.strictEqual(items.length, 1)
        assert.deepInclude(items[0]!, {
          teamId,
          messageId: "m-1",
          subject: "Invoice",
          sender: "billing@vendor.example"
        })
        assert.deepStrictEqual(items[0]!.attachments, [
          {
            filename: "invoice.pdf",
            contentType: "application/pdf",
            size: 8,
            path: `vault/${teamId}/inbox/${items[0]!.id}/1`,
            skipped: null
          }
        ])
      }).pipe(Effect.provide(DomainMemory))
    )

    it.effect("refuses an address no team owns for good and files nothing", () =>
      Effect.gen(function* () {
        const teamId = yield* newTeam
        const ghost = crypto.randomUUID()
        for (const address of [
          "nobody@example.com",
          `${ghost}@inbox.svc.test`,
          `someone@${teamId}.example.com`,
          "00000000-0000-0000-0000-000000000000@inbox.svc.test"
        ]) {
          const refused = yield* refusalOf(mail(address))
          assert.deepInclude(refused.reason, { _tag: "InboxAddressUnknown", address }, address)
          assert.isFalse(refused.retryable)
          assert.strictEqual(refused.message, `no team owns the address ${address}`)
        }
        assert.deepStrictEqual(
          yield* InboxItemsRepo.use((inbox) => inbox.list(teamId, null, { after: Option.none(), limit: 100 })),
          []
        )
      }).pipe(Effect.provide(DomainMemory))
    )
  })

  it("commands validate their fields when built", () => {
    const teamId = TeamId.make(crypto.randomUUID())
    assert.throws(() => depositOf(teamId, { amountMinor: 0 }))
    assert.throws(() => depositOf(teamId, { amountMinor: 1.5 }))
    assert.throws(() => depositOf(teamId, { currency: "usd" }))
    assert.throws(() => depositOf("acme" as TeamId))
    assert.throws(() => new KycDecisionReceived({ provider: "kyc-a", entityId: "x", status: "approved" }))
  })
})

describe("teamOfInboxAddress", () => {
  const team = "0190f3a1-2b3c-7d4e-8f90-123456789abc"
  it("finds the team id in the local part only", () => {
    assert.strictEqual(teamOfInboxAddress(`${team}@inbox.example.com`), team)
    assert.strictEqual(teamOfInboxAddress(`Invoices <bills+${team.toUpperCase()}@inbox.example.com>`), team)
    assert.isUndefined(teamOfInboxAddress(`someone@${team}.example.com`))
    assert.isUndefined(teamOfInboxAddress("nobody@example.com"))
  })
})
