/**
 * The context map: every bounded context, what it owns and the contexts its modules may import. The architecture test
 * refuses an import the map does not allow, and the table of docs/architecture.md is generated from it
 * (`npm run context-map`).
 */

/** One bounded context: its folder name in every package, what it owns, and the contexts it may import. */
export interface BoundedContext {
  readonly name: string
  readonly owns: string
  /** The contexts it imports through their `index.ts` (or their `model.ts`). */
  readonly uses: ReadonlyArray<string>
  /** The contexts whose `model.ts` alone it imports (shapes and pure rules, no service behind them). */
  readonly models?: ReadonlyArray<string>
}

export const CONTEXT_MAP: ReadonlyArray<BoundedContext> = [
  {
    name: "shared",
    owns: "ids, money, time, randomness, secrets, pagination, the `Transactor` port, periodic jobs and their fence (`JobsFence`, ADR 0050)",
    uses: []
  },
  {
    name: "identity",
    owns: "users, teams, roles, file keys, managed entities (KYC), team plans, teams' receive handles, members and invitations (`TeamManagement`), dashboard sign-in by one-time link and cookie sessions (`DashboardSignIn`, ADRs 0037 and 0044)",
    uses: ["audit", "platform", "shared"]
  },
  {
    name: "onboarding",
    owns: "opening a team (`TeamOpening`): the team with its owner, its live and test spend accounts, its receive handle and its standard categories, in one transaction",
    uses: ["finance/transactions", "identity", "ledger", "shared"]
  },
  {
    name: "access",
    owns: "principals, scopes, spending keys, team and generic API keys, policy versions, credential resolvers, who may manage keys",
    uses: ["audit", "identity", "ledger", "oauth", "shared"],
    models: ["spend"]
  },
  { name: "oauth", owns: "the OAuth 2.0 server: clients, codes, tokens, scopes", uses: ["identity", "shared"] },
  { name: "ledger", owns: "accounts, double-entry transactions, holds, the pure posting rules", uses: ["shared"] },
  {
    name: "approvals",
    owns: "one approval object for any request (subject, expiry, decision, decider), who may decide",
    uses: ["identity", "platform", "shared"],
    models: ["access"]
  },
  {
    name: "audit",
    owns: "the per-team hash-chained audit log: entries, canonical content, verification (ADR 0017)",
    uses: ["shared"]
  },
  {
    name: "governance",
    owns: "the governance kernel (ADR 0045): an agent's ask decided under its policy and budgets (`decideGoverned`), the approval of a governed subject decided by members' steps and refused while spending is frozen (`governedApprovals`, `decideByStep`), one repository shape (`GovernedRepo`) and one lifecycle (`governedLifecycle`: create under the decision's locks, read as of now, cancel, approve, deny, expire, sweep) for checkout intents, book transfers and crypto payouts",
    uses: ["approvals", "ledger", "platform", "shared"],
    models: ["access", "spend"]
  },
  {
    name: "spend",
    owns: "spend policy (its schema, its evaluation, budget periods), spend requests, budgets, freezes",
    uses: ["access", "approvals", "governance", "ledger", "platform", "shared"]
  },
  {
    name: "transfers",
    owns: "book transfers between workspaces: receive addresses (a team's handle per mode), payment codes, transfers (ADR 0014)",
    uses: ["approvals", "governance", "identity", "ledger", "platform", "shared", "spend"],
    models: ["access"]
  },
  {
    name: "checkout",
    owns: "checkout intents, single-use cards and the card-issuer port, card authorizations, their holds and refunds (ADR 0015), the test-mode issuer simulation (ADR 0059)",
    uses: ["approvals", "governance", "ledger", "platform", "shared", "spend"],
    models: ["access"]
  },
  {
    name: "activity",
    owns: "the treasury's team-wide read model (ADR 0039): one newest-first list of spend requests, outgoing transfers and checkout intents, an item's trail and ledger transactions, each key's daily spend and budget usage; the `ActivityRepo` port (Postgres: index-backed reads, migration 0037; memory: read through the other ports)",
    uses: ["access", "checkout", "identity", "shared", "spend", "transfers"],
    models: ["approvals", "ledger"]
  },
  {
    name: "crypto",
    owns: "stablecoin payouts: networks and assets, address rules (EIP-55 over a hand-written Keccak-256, base58), the allow-list of destinations (audited, never edited), quotes and their fees (ADR 0031), payouts, their worker and the `PayoutRail` port (ADR 0032)",
    uses: ["approvals", "audit", "governance", "ledger", "platform", "shared", "spend"],
    models: ["access", "identity"]
  },
  {
    name: "x402",
    owns: "x402 payments (ADR 0062): 402 answers read and checked (networks, tokens, amounts, timeouts), decided as spend in US cents at one dollar a stablecoin, EIP-3009 authorizations signed by the team's sealed wallet key once approved, held until seen settled or released unused; the `X402Signer`, `X402Settlements`, `X402WalletsRepo` and `X402PaymentsRepo` ports",
    uses: ["approvals", "governance", "ledger", "platform", "shared", "spend"],
    models: ["access", "crypto"]
  },
  {
    name: "integrations",
    owns: "third-party apps a team connects: the chat app's install (signed install state, the sealed bot token, one `ChatIntegration` per team, uninstall with revocation, `markDisconnected` and its `chat_integration.disconnected` event), the `ChatIntegrationsRepo` and `ChatPlatform` ports (ADR 0034); connected mailboxes (`MailConnection`: install URL, callback, disconnect, failure notice; the `MailProvider` and `MailStateCodec` ports; tokens sealed, ADR 0035); install states used once and only by the browser that asked for them (`startInstall`, `redeemInstallState`, the `InstallNoncesRepo` port, ADR 0042)",
    uses: [
      "access",
      "approvals",
      "audit",
      "checkout",
      "crypto",
      "identity",
      "platform",
      "shared",
      "spend",
      "transfers"
    ],
    models: ["finance/money"]
  },
  {
    name: "webhooks",
    owns: "outbound endpoints, deliveries, URL rules",
    uses: ["platform", "shared"],
    models: ["checkout", "crypto", "finance/banking", "finance/invoices", "integrations", "spend", "transfers", "x402"]
  },
  {
    name: "inbound",
    owns: "provider events, their commands and rules, the inbound endpoint table",
    uses: [
      "checkout",
      "files",
      "finance/banking",
      "finance/documents",
      "finance/invoices",
      "finance/transactions",
      "identity",
      "ledger",
      "platform",
      "shared"
    ],
    models: ["finance/money"]
  },
  {
    name: "platform",
    owns: "the event outbox (each event audited as it is published), idempotency, rate limits, the `Mailer` port (a log mailer by default), the background-jobs leader lock (ADR 0050)",
    uses: ["audit", "shared"]
  },
  {
    name: "notifications",
    owns: "notifications members read and mark, made from outbox events by a notification pass (ADR 0022)",
    uses: ["platform", "shared"]
  },
  {
    name: "finance/money",
    owns: "the ISO 4217 currency table, exact amount rules (`parseMajor`, `renderMinor`, half-away rounding), calendar dates, the team's exchange rates (ADR 0020)",
    uses: ["shared"]
  },
  {
    name: "finance/banking",
    owns: "bank connections, bank accounts (manual and connected)",
    uses: ["finance/money", "identity", "shared"]
  },
  { name: "finance/tags", owns: "a team's tags", uses: ["shared"] },
  {
    name: "finance/transactions",
    owns: "business-finance transactions, their tags and attachments, categories and the standard taxonomy",
    uses: ["finance/banking", "finance/tags", "shared"],
    models: ["files", "finance/money"]
  },
  { name: "finance/customers", owns: "a team's customers and their tags", uses: ["finance/tags", "shared"] },
  {
    name: "finance/documents",
    owns: "documents (uploaded files' metadata), inbox items with their stored attachments, matches and suggested matches",
    uses: ["files", "finance/transactions", "shared"],
    models: ["finance/money"]
  },
  {
    name: "finance/invoices",
    owns: "invoices (numbering, statuses, sums), the `InvoiceRenderer` (PDF) and `PaymentsProvider` ports, recording a provider's payment (ADR 0029)",
    uses: ["finance/customers", "finance/transactions", "identity", "platform", "shared"],
    models: ["finance/money"]
  },
  {
    name: "files",
    owns: "the `FileStorage` port (streamed, all-or-nothing, size-limited, never through a symbolic link; its failures are `FileStoreUnavailable`), vault keys and path rules, the `FileName` and `ContentType` (RFC 9110 media type) rules every file's metadata passes where it enters, access by team file key or by presigned link (`FileAccess`, `FileLinks`, ADR 0028, 0043, 0058)",
    uses: ["identity"],
    models: ["shared"]
  },
  {
    name: "finance/reports",
    owns: "the six reports: pure report maths, the `Reports` service, the `ReportsRepo` port of monthly sums (Postgres: monthly totals kept by triggers, ADR 0023; memory: read through the finance ports)",
    uses: ["identity", "shared"],
    models: ["finance/money"]
  },
  {
    name: "finance/tracker",
    owns: "tracker projects (rate, totals rounded once), entries, one running timer per user (ADR 0030)",
    uses: ["finance/customers", "finance/tags", "shared"],
    models: ["finance/money"]
  },
  {
    name: "finance/search",
    owns: "one ranked search over the team's transactions, customers, invoices, documents and inbox, one query fragment per type (ADR 0030)",
    uses: [],
    models: ["finance/money", "finance/transactions", "shared"]
  }
]

const byName = new Map(CONTEXT_MAP.map((context) => [context.name, context]))

/** Whether a folder name is a context of the map. */
export const isContext = (name: string): boolean => byName.has(name)

/** What `from` may import of `to`: everything it offers, its model only, or nothing. */
export const allowedUse = (from: string, to: string): "all" | "model" | "none" => {
  const context = byName.get(from)
  if (context === undefined) return "none"
  if (context.uses.includes(to)) return "all"
  return context.models?.includes(to) === true ? "model" : "none"
}

/** The graph of the map's uses, each context to the contexts whose services it may use (`uses`, not `models`). */
export const usesGraph = (): Map<string, ReadonlyArray<string>> =>
  new Map(CONTEXT_MAP.map((context) => [context.name, context.uses]))

const TABLE_START = "<!-- context map: generated from tests/src/support/ContextMap.ts by `npm run context-map` -->"
const TABLE_END = "<!-- end of the context map -->"

/** The table of the map, one row per context. */
const contextTable = (): string => {
  const uses = (context: BoundedContext) => {
    const all = [...context.uses, ...(context.models ?? []).map((name) => `${name} (model)`)]
    return all.length === 0 ? "nothing" : all.join(", ")
  }
  return [
    "| context | what it owns | uses |",
    "|---|---|---|",
    ...CONTEXT_MAP.map((context) => `| \`${context.name}\` | ${context.owns} | ${uses(context)} |`)
  ].join("\n")
}

/** The document with the table between its context-map markers made from the map; fails without the markers. */
export const withContextTable = (doc: string): string => {
  const start = doc.indexOf(TABLE_START)
  const end = doc.indexOf(TABLE_END)
  if (start === -1 || end < start) throw new Error("the document has no context-map markers")
  return `${doc.slice(0, start)}${TABLE_START}\n${contextTable()}\n${doc.slice(end)}`
}
