import type { OpenApi } from "effect/http-api"

/** How the reference page presents one tag (one `HttpApiGroup`): its reader name and a one-line description. */
interface TagEntry {
  readonly id: string
  readonly name: string
  readonly description: string
}

interface TagGroup {
  readonly name: string
  readonly tags: ReadonlyArray<TagEntry>
}

const tag = (id: string, name: string, description: string): TagEntry => ({ id, name, description })

/** The reference page's sections, in the order a newcomer meets them; each group id of the API belongs to exactly one. */
export const REFERENCE_CATALOG: ReadonlyArray<TagGroup> = [
  {
    name: "Agent spend",
    tags: [
      tag("accounts", "Accounts and balance", "The team's ledger accounts and the balance an agent can spend."),
      tag("spendRequests", "Spend requests", "An agent asks to spend; policy, budgets and approvals decide."),
      tag("spendEvaluation", "Spend evaluation", "Ask what policy would decide for a spend, without spending."),
      tag("agentKeys", "Spending keys", "Agent credentials and the team's spend policy."),
      tag("testHelpers", "Test helpers", "Drive a spend request through its states in a test environment."),
      tag("changelog", "Changelog", "What changed in the agent-spend surface, whether it breaks clients, what to do.")
    ]
  },
  {
    name: "Transfers and checkout",
    tags: [
      tag("transfers", "Transfers", "Book transfers between workspaces: addresses, payment codes and transfers."),
      tag("checkout", "Checkout intents", "Agent purchases paid with single-use cards."),
      tag("checkoutCredentials", "Checkout cards", "The secrets of a checkout card, answered once."),
      tag(
        "checkoutTestHelpers",
        "Checkout test helpers",
        "Play the card issuer in test mode: authorize, advise, clear and change a card's state."
      )
    ]
  },
  {
    name: "Crypto",
    tags: [
      tag("cryptoDestinations", "Crypto destinations", "The allow-list of addresses stablecoin payouts may go to."),
      tag("cryptoQuotes", "Crypto quotes", "Price a stablecoin payout before sending it."),
      tag("cryptoPayouts", "Crypto payouts", "Stablecoin payouts to allow-listed destinations."),
      tag("x402Payments", "x402 payments", "Pay resources that answer 402 Payment Required, by the team's wallet.")
    ]
  },
  {
    name: "Treasury and governance",
    tags: [
      tag("treasury", "Treasury", "Fund, review and control the team's money from the dashboard."),
      tag("governance", "Approvals and kill switch", "Approval chains and the switch that stops all agent spend."),
      tag("audit", "Audit log", "Who did what, when, to the team's money and settings.")
    ]
  },
  {
    name: "Business finance",
    tags: [
      tag("transactions", "Transactions", "The business's bank and card transactions."),
      tag("categories", "Categories", "Categories that classify transactions."),
      tag("tags", "Tags", "Free labels on transactions, tracker projects and more."),
      tag("bankAccounts", "Bank accounts", "The business's connected and manual bank accounts."),
      tag("exchangeRates", "Exchange rates", "The rates used to convert between currencies."),
      tag("reports", "Reports", "Revenue, profit, burn rate and other business-finance reports."),
      tag("customers", "Customers", "The customers the business invoices."),
      tag("invoices", "Invoices", "Draft, send and track invoices."),
      tag("invoicePayments", "Invoice payments", "Pay an invoice through its public link."),
      tag("invoiceDownload", "Invoice documents", "The PDF of an invoice."),
      tag("documents", "Documents", "Receipts, contracts and other uploaded documents."),
      tag("inbox", "Inbox", "Incoming receipts waiting to be matched to transactions."),
      tag("files", "Files", "Upload and download the files documents and attachments point at."),
      tag("trackerProjects", "Tracker projects", "Projects that time is tracked against."),
      tag("trackerEntries", "Tracker entries", "Tracked time and the running timer."),
      tag("search", "Search", "Find transactions, invoices, customers and documents in one query.")
    ]
  },
  {
    name: "OAuth and keys",
    tags: [
      tag("dashboardSignIn", "Dashboard sign-in", "Sign in to the dashboard by email."),
      tag("dashboardSession", "Dashboard session", "The dashboard's session: read it, end it."),
      tag(
        "personalTokens",
        "Personal tokens",
        "A person's own bearer token for the CLI, made in the dashboard: acts as them, shown once, revocable."
      ),
      tag("oauth", "OAuth", "The OAuth 2.0 authorization server: authorization code with PKCE, refresh tokens."),
      tag("wellKnown", "OAuth discovery", "Metadata that lets OAuth clients discover the server."),
      tag("oauthApplications", "OAuth applications", "The team's OAuth applications (developer settings)."),
      tag("apiKeys", "API keys", "Team API keys for servers and scripts.")
    ]
  },
  {
    name: "Webhooks",
    tags: [
      tag("webhookEndpoints", "Webhook endpoints", "Where the service sends signed events about the team."),
      tag("inboundEvents", "Inbound events", "The provider events the service received, for owners and admins."),
      tag("inboundWebhooks", "Provider webhooks", "Callbacks from providers, each verified by its signature headers.")
    ]
  },
  {
    name: "Operations",
    tags: [
      tag("system", "Health", "Liveness and readiness of the service."),
      tag("desktop", "Desktop", "The desktop app's update manifest and the download of its latest build."),
      tag("teams", "Teams", "Create and list the workspaces a user belongs to."),
      tag("me", "Me", "The signed-in user."),
      tag("teamAdmin", "Team administration", "Teams, members and their roles."),
      tag("invites", "Invitations", "Invite people to a team and answer invitations."),
      tag("notifications", "Notifications", "What the signed-in user is told about, and how."),
      tag("chatApp", "Chat app", "The chat platform app: install it, answer its commands."),
      tag("mailAccounts", "Mail accounts", "Connected mailboxes that forward receipts to the inbox."),
      tag("mailCallback", "Mail sign-in callback", "Where a mail provider returns after its consent screen.")
    ]
  }
]

const entries = new Map(REFERENCE_CATALOG.flatMap((group) => group.tags.map((entry) => [entry.id, entry] as const)))

type Operation = { readonly tags?: ReadonlyArray<string> }

/**
 * Presents an OpenAPI document for readers: each tag named and described from the catalog, its operations
 * listed under that name, and `x-tagGroups` in the catalog's order. A tag the catalog does not know keeps its id
 * and appears in no group, which the OpenAPI lint refuses.
 */
export const withReferenceCatalog = (document: Record<string, unknown>): Record<string, unknown> => {
  const spec = document as unknown as OpenApi.OpenAPISpec
  const readerName = (id: string) => entries.get(id)?.name ?? id
  const paths = Object.fromEntries(
    Object.entries(spec.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item as Record<string, Operation>).map(([method, operation]) => [
          method,
          operation.tags === undefined ? operation : { ...operation, tags: operation.tags.map(readerName) }
        ])
      )
    ])
  )
  const tags = spec.tags.map((entry) => {
    const known = entries.get(entry.name)
    return known === undefined ? entry : { ...entry, name: known.name, description: known.description }
  })
  const tagGroups = REFERENCE_CATALOG.map((group) => ({
    name: group.name,
    tags: group.tags.map((entry) => readerName(entry.id))
  }))
  return { ...spec, paths, tags, "x-tagGroups": tagGroups }
}

/** What the OpenAPI lint refuses in a document's presentation, one sentence per problem. */
export const referenceProblems = (document: Record<string, unknown>): ReadonlyArray<string> => {
  const spec = document as {
    readonly paths: Record<string, Record<string, { readonly summary?: string }>>
    readonly tags: ReadonlyArray<{ readonly name: string; readonly description?: string }>
    readonly "x-tagGroups"?: ReadonlyArray<{ readonly name: string; readonly tags: ReadonlyArray<string> }>
  }
  const groups = spec["x-tagGroups"] ?? []
  const grouped = new Set(groups.flatMap((group) => group.tags))
  const known = new Set(spec.tags.map((entry) => entry.name))
  return [
    ...Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => (operation.summary ?? "").trim() === "")
        .map(([method]) => `operation ${method.toUpperCase()} ${path} has no summary`)
    ),
    ...spec.tags
      .filter((entry) => (entry.description ?? "").trim() === "")
      .map((entry) => `tag "${entry.name}" has no description`),
    ...spec.tags.filter((entry) => !grouped.has(entry.name)).map((entry) => `tag "${entry.name}" is in no group`),
    ...groups.flatMap((group) =>
      group.tags.filter((name) => !known.has(name)).map((name) => `group "${group.name}" names unknown tag "${name}"`)
    )
  ]
}
