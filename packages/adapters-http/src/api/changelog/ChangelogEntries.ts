import type { ChangelogEntry } from "./ChangelogApi.ts"

/** The changelog of the agent-spend surface, newest first: the one source of `GET /changelog` and CHANGELOG.md. */
export const CHANGELOG: ReadonlyArray<ChangelogEntry> = [
  {
    id: "cli-faster-start",
    date: "2026-11-29",
    title: "svc starts faster",
    surfaces: ["cli"],
    breaking: false,
    change:
      "Every `svc` command but `svc mcp` starts without loading the MCP server's tools: about a third less time " +
      "before a command runs (1.5 s to 1.1 s for `svc --help` on a small machine).",
    action: "Nothing required."
  },
  {
    id: "x402-paying-fetch",
    date: "2026-11-29",
    title: "A paying fetch for x402 in the SDK, svc pay, and the MCP tool pay_for_resource",
    surfaces: ["sdk", "cli", "mcp"],
    breaking: false,
    change:
      "The SDK's `x402Fetch(client, options)` is a `fetch` that pays a resource answering 402 through " +
      "`POST /v1/x402/payments` and sends the request again with the payment header; a payment waiting for approval " +
      'is waited for or, with `approval: "return"`, refused at once; a payment not made rejects with ' +
      "`X402PaymentNotMade`. `svc pay <url>` prints the paid resource (`--method` GET, POST, PUT, PATCH or DELETE; " +
      "exit 3 denied, 4 pending; it shows a wait only once the payment waits for approval); `svc mcp` offers " +
      "`pay_for_resource`.",
    action: "Nothing required."
  },
  {
    id: "x402-payments",
    date: "2026-11-29",
    title: "x402 payments: pay resources that answer 402 Payment Required, governed like spend",
    surfaces: ["api"],
    breaking: false,
    change:
      "New `POST /v1/x402/payments` takes the resource's URL and its 402 answer (x402 v1 or v2) and decides under the " +
      "key's policy as a spend request (in US cents at one dollar a stablecoin; merchant `x402:<origin>:<payTo>`, " +
      "category `x402`): `signed` holds the amount and answers `paymentHeader` (`X-PAYMENT` or `PAYMENT-SIGNATURE` " +
      "and its value), an EIP-3009 authorization signed by the team's wallet; `pending_approval` signs once a person " +
      "approves it in `/treasury/approvals`; `denied` signs nothing. `GET /v1/x402/payments/{id}` answers the header " +
      "once signed, `GET /v1/x402/payments` lists them, `GET /v1/x402/wallet` shows the wallet's address. The hold is " +
      "posted when the authorization is used on chain (`settled`) and released when it expires unused. New webhook " +
      'events `x402_payment.*`; approvals may have `subjectType: "x402_payment"`.',
    action:
      "Nothing required. Fund the wallet `GET /v1/x402/wallet` shows; handle `x402_payment` approvals where you " +
      "switch on `subjectType`."
  },
  {
    id: "checkout-test-helpers",
    date: "2026-11-29",
    title: "Checkout test helpers: play the card issuer in test mode; card refunds",
    surfaces: ["api", "sdk", "cli", "mcp"],
    breaking: false,
    change:
      "New test-mode routes under `/v1/test-helpers/checkout` simulate, on a test card or authorization named by the " +
      "ids the API answers, an authorization (decided as the auth-stream decides it), an advice, a clearing, a refund " +
      "and a card status event; live keys get 403. The SDK has them as `checkoutTestHelpers.*`, the CLI as " +
      "`svc checkout simulate ...`, MCP as the five `simulate_*` tools. The issuer's new `refund` event posts a " +
      "refund of a cleared authorization back to the spend account (ledger code `card_refund`).",
    action:
      "Nothing required. Test a checkout integration end to end in test mode with the helpers instead of signing " +
      "auth-stream requests with a card token no API answer carries."
  },
  {
    id: "approvals-name-the-decider",
    date: "2026-11-29",
    title: "Approvals name who decided them",
    surfaces: ["api", "sdk", "cli"],
    breaking: false,
    change:
      "Every approval (a spend request's, transfer's, checkout intent's or payout's `approval`, and `/treasury/approvals`) " +
      "carries `decidedByName` beside `decidedBy`: the deciding member's name, else their e-mail; null while pending " +
      "and for expiries and cancellations. `svc` prints it wherever it says who decided (a `DECIDED BY` column in " +
      "`svc approvals list`).",
    action: "Nothing required; show `decidedByName` to people instead of the user id."
  },
  {
    id: "cli-one-failure-style",
    date: "2026-11-29",
    title: "svc: one failure style, reasons in money, the service's URL from configuration",
    surfaces: ["cli"],
    breaking: false,
    change:
      "Every failure prints `error: <what>`, indented details, then what to do next (`see: ... --help`, " +
      "`request id: ...`), usage errors of the command line included (they printed an `ERROR` block); an unexpected " +
      "failure exits 1 without a stack trace. Policy reasons read in words with money like the amount beside them " +
      "(`Over the per-request limit (limit USD 100.00)`). Without `--base-url`, `SVC_BASE_URL` or a stored login, " +
      "`svc` calls `http://localhost:$PORT`, `PORT` as the server reads it (3000 unless set).",
    action:
      "Scripts that matched the old stderr text match the `error: ` line or, better, the exit code; a server on " +
      "another port is found with `PORT` or named with `SVC_BASE_URL`."
  },
  {
    id: "oauth-tokens-refused-on-v1",
    date: "2026-11-28",
    title: "OAuth access tokens are refused on /v1",
    surfaces: ["api", "sdk"],
    breaking: true,
    change:
      "`/v1` routes answer 401 to an OAuth access token; they take agent keys and team API keys only. OAuth " +
      "access tokens keep working on `/mcp` and on the `/treasury` routes their scopes allow.",
    action:
      "An OAuth application calls the MCP tools at `/mcp` or the `/treasury` routes with its access token; a " +
      "server or script that calls `/v1` uses a team API key instead."
  },
  {
    id: "mcp-tool-hints-and-reads",
    date: "2026-11-28",
    title: "MCP tools state their hints truthfully; three new tools",
    surfaces: ["mcp"],
    breaking: false,
    change:
      "Every tool states `readOnlyHint`, `destructiveHint`, `idempotentHint` and `openWorldHint` as it behaves: the " +
      "reads are read-only, `create_spend_request`, `create_transfer` and `cancel_spend_request` are destructive. " +
      "New: `get_transfer`, `get_checkout_intent` and `evaluate_spend_request` (a dry run). `create_transfer`'s " +
      "`currency` is the enum `USD`. `svc mcp --print-config` prints the host configuration by absolute paths.",
    action:
      "A host that trusted the old hints may now ask before the money-moving tools. Configure hosts with what " +
      "`svc mcp --print-config` prints, never `npx svc mcp`."
  },
  {
    id: "cli-login-checks-credential",
    date: "2026-11-28",
    title: "svc login checks the credential before storing it",
    surfaces: ["cli"],
    breaking: false,
    change:
      "`svc login` asks the service first: a credential it refuses exits 7 and an unreachable service exits 6, and " +
      "nothing is stored in either case (it used to store anything and say it was logged in).",
    action: "Scripts that logged in before the service was up log in once it answers."
  },
  {
    id: "amounts-minor-units-message",
    date: "2026-11-28",
    title: "A fractional amount names the unit it expects",
    surfaces: ["api", "sdk", "mcp"],
    breaking: false,
    change:
      "An amount with decimals is refused, as before, with the message `amounts are integers in minor units: 1999 " +
      "for 19.99 USD` instead of `Expected an integer`; every /v1 field is described in the OpenAPI document.",
    action: "Nothing required; code that matched the old message text matches the `path` instead."
  },
  {
    id: "changelog",
    date: "2026-11-28",
    title: "A served changelog and a deprecation policy",
    surfaces: ["api", "sdk", "cli"],
    breaking: false,
    change:
      "`GET /changelog` answers these entries as JSON; the SDK reads them with `client.changelog.list()` and the " +
      "CLI with `svc changelog`. A deprecated route answers `Deprecation`, `Sunset` and a `Link` to the changelog.",
    action: "Nothing required. Watch for `breaking: true` entries and for the `Deprecation` header."
  },
  {
    id: "sdk-retries-idempotency-key-in-use",
    date: "2026-11-28",
    title: "The SDK retries 409 idempotency_key_in_use after Retry-After",
    surfaces: ["sdk", "cli"],
    breaking: false,
    change:
      "A 409 `idempotency_key_in_use` (the key's first request still runs) is retried with the same key after its " +
      "`Retry-After`, so the retry replays the first request's answer instead of failing.",
    action: "Nothing required; a retry loop of your own around this 409 can go."
  },
  {
    id: "payment-codes-reserved",
    date: "2026-11-28",
    title: "A payment code is held by its open transfer",
    surfaces: ["api", "sdk", "cli"],
    breaking: false,
    change:
      "A second transfer made with a payment code that an open transfer already uses is refused with 409 " +
      "`payment_code_reserved`; declining, canceling, expiry or denial of the first frees the code.",
    action: "Handle 409 `payment_code_reserved` on `POST /v1/transfers` by asking the payee for a new code."
  },
  {
    id: "crypto-payouts",
    date: "2026-11-27",
    title: "Stablecoin payouts on /v1",
    surfaces: ["api", "sdk"],
    breaking: false,
    change:
      "`POST /v1/crypto/payouts`, `GET /v1/crypto/payouts`, `GET /v1/crypto/payouts/{id}` and " +
      "`POST /v1/crypto/payouts/{id}/cancel` send stablecoins to allow-listed destinations, under the team's approvals.",
    action: "Nothing required; new routes."
  },
  {
    id: "mcp-spend-tools",
    date: "2026-11-23",
    title: "MCP spend tools over stdio and Streamable HTTP",
    surfaces: ["mcp", "cli"],
    breaking: false,
    change:
      "The spend tools are served over Streamable HTTP at `/mcp` (after the MCP client's OAuth flow) and over " +
      "stdio by `svc mcp`, with the CLI's credentials.",
    action: "Nothing required; connect an MCP client as the README describes."
  },
  {
    id: "cli",
    date: "2026-11-23",
    title: "The svc command line",
    surfaces: ["cli"],
    breaking: false,
    change:
      "`svc` logs in once and then shows the balance, spends, answers approvals, transfers and checks out, with " +
      "exact amounts, `--json` output and an exit code per outcome.",
    action: "Nothing required; new tool."
  },
  {
    id: "sdk-derived-client",
    date: "2026-11-23",
    title: "The SDK's client is derived from the contract",
    surfaces: ["sdk"],
    breaking: false,
    change:
      "Every route is `client.<group>.<endpoint>(request)`, typed from the HTTP contract, as an Effect or a " +
      "Promise; the SDK ships as one npm tarball with declarations.",
    action: "Nothing required; new package."
  }
]

const surfaceNames = { api: "API", sdk: "SDK", cli: "CLI", mcp: "MCP" } as const

/** CHANGELOG.md: the same entries as `GET /changelog`, written for people. */
export const changelogMarkdown = (entries: ReadonlyArray<ChangelogEntry>): string =>
  [
    "# Changelog",
    "",
    "Changes to the agent-spend surface: the `/v1` API, the SDK, the CLI (`svc`) and the MCP tools, newest first.",
    "The same entries are served as JSON at `GET /changelog`. What counts as breaking, and how long a deprecated",
    "route lives, is in [docs/contract.md](docs/contract.md#versioning-and-deprecation).",
    "This file is generated from `packages/adapters-http/src/api/changelog/ChangelogEntries.ts` by `npm run changelog`.",
    ...entries.flatMap((entry) => [
      "",
      `## ${entry.date}: ${entry.title}`,
      "",
      `- Surfaces: ${entry.surfaces.map((surface) => surfaceNames[surface]).join(", ")}`,
      `- Breaking: ${entry.breaking ? "yes" : "no"}`,
      `- What changed: ${entry.change}`,
      `- What to do: ${entry.action}`
    ]),
    ""
  ].join("\n")
