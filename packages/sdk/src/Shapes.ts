import type {
  AccountResponse,
  ActiveFreezes,
  ActivityDetailResponse,
  ActivityItemResponse,
  ApprovalResponse,
  ApprovalRulesBody,
  AuditEntryResponse,
  AuditVerificationResponse,
  BalanceResponse,
  BankAccountResponse,
  BulkUpdateTransactionsRequest,
  BurnRateReportResponse,
  CardAuthorizationResponse,
  CardCredentialsResponse,
  CategoryResponse,
  ChangelogEntry as ChangelogEntrySchema,
  CheckoutCardResponse,
  CheckoutIntentResponse,
  CreateBankAccountRequest,
  CreateCategoryRequest,
  CreateCheckoutIntentBody,
  CreateCryptoDestinationBody,
  CreateCryptoPayoutBody,
  CreateCryptoQuoteBody,
  CreateCustomerRequest,
  CreatePaymentCodeBody,
  CreateSpendRequestBody,
  CreateTeamRequest,
  CreateTrackerEntryRequest,
  CreateTrackerProjectRequest,
  CreateTransactionAttachmentRequest,
  CreateTransactionRequest,
  CreateTransferBody,
  CryptoDestinationResponse,
  CryptoPayoutResponse,
  CryptoQuoteResponse,
  CustomerResponse,
  ExchangeRateResponse,
  ExpensesReportResponse,
  FreezeBody,
  InviteRequest,
  NotificationResponse,
  PaymentCodeResponse,
  PolicyVersionResponse,
  ProfitReportResponse,
  ReceiveAddressResponse,
  ReportQueryParams,
  RevenueReportResponse,
  RunwayReportResponse,
  SearchResponse,
  SetExchangeRatesRequest,
  SimulateAuthorizationBody,
  SpendEvaluationResponse,
  SpendingReportResponse,
  SpendRequestResponse,
  SpendStatsResponse,
  StartTimerRequest,
  TagResponse,
  TeamInviteResponse,
  TeamMemberResponse,
  TeamResponse,
  TrackerEntryResponse,
  TrackerProjectResponse,
  TransactionResponse,
  TransferResponse,
  UpdateBankAccountRequest,
  UpdateCategoryRequest,
  UpdateCustomerRequest,
  UpdateTeamRequest,
  UpdateTrackerEntryRequest,
  UpdateTrackerProjectRequest,
  UpdateTransactionRequest,
  UpdateUserRequest,
  UserResponse,
  X402PaymentResponse
} from "@svc/adapters-http/api"

/** One dated change to the agent-spend surface: `breaking`, what changed (`change`) and what to do (`action`). */
export type ChangelogEntry = typeof ChangelogEntrySchema.Type
/** A team as its member sees it. */
export type Team = typeof TeamResponse.Type
/** The signed-in user, their current team and its file key. */
export type User = typeof UserResponse.Type
/** A spend account with its balance in minor units. */
export type Account = typeof AccountResponse.Type
/** The balance of the credential's account, in minor units. */
export type Balance = typeof BalanceResponse.Type
/** The body of POST /teams. */
export type CreateTeamInput = typeof CreateTeamRequest.Type
/** A team's receive address in one mode (`acme-7fk2@svc`, `acme-7fk2@test.svc`). */
export type ReceiveAddress = typeof ReceiveAddressResponse.Type
/** The body of POST /v1/spend-requests: amount, currency, merchant (name, category, url), purpose, account, metadata. */
export type CreateSpendRequestInput = typeof CreateSpendRequestBody.Type
/**
 * What create would decide now: `outcome` and `reasons`, each reason with its figures (`limit`, `used`, `requested`,
 * `remaining`, `interval`, `category`, `resetsAt`, `nextAllowedAt`, `approvers`).
 */
export type SpendEvaluation = typeof SpendEvaluationResponse.Type
/** A spend request: its status, the policy's decision with reasons, its approval and the money it moved. */
export type SpendRequest = typeof SpendRequestResponse.Type
/** An x402 payment by the team's wallet: its status, the policy's decision and, once signed, the header to retry with. */
export type X402Payment = typeof X402PaymentResponse.Type
/** A single-use payment code with its status as of the answer. */
export type PaymentCode = typeof PaymentCodeResponse.Type
/** The body of POST /v1/transfers/payment-codes. */
export type CreatePaymentCodeInput = typeof CreatePaymentCodeBody.Type
/** A book transfer as the caller's team sees it (`direction`: `outgoing` or `incoming`). */
export type Transfer = typeof TransferResponse.Type
/** The body of POST /v1/transfers: `to` an address or a payment code, an amount in USD minor units, a memo. */
export type CreateTransferInput = typeof CreateTransferBody.Type
/** A checkout intent: what the agent may buy, the policy's decision, its card's reference and what it holds. */
export type CheckoutIntent = typeof CheckoutIntentResponse.Type
/** The body of POST /v1/checkout/intents: amount and currency, the merchant, why, and how long it may wait. */
export type CreateCheckoutIntentInput = typeof CreateCheckoutIntentBody.Type
/** The card of an intent: `number` and `cvc` on the first answer only. */
export type CardCredentials = typeof CardCredentialsResponse.Type
/** A test-mode authorization (the test helpers): its decision and reason, its status, what it holds and refunded. */
export type CardAuthorization = typeof CardAuthorizationResponse.Type
/** A checkout card's state as the card-status test helper answers it (never its number). */
export type CheckoutCard = typeof CheckoutCardResponse.Type
/** The body of a simulated authorization: amount, currency and the merchant (descriptor, MCC, country). */
export type SimulateAuthorizationInput = typeof SimulateAuthorizationBody.Type
/** An approval with its subject and its progress (`approvals: {required, received, decisions}`). */
export type Approval = typeof ApprovalResponse.Type
/** One item of GET /treasury/activity: a spend request, outgoing transfer or checkout intent, with its key. */
export type ActivityItem = typeof ActivityItemResponse.Type
/** GET /treasury/activity/:kind/:id: the item, its trail (oldest first) and the ledger transactions it caused. */
export type ActivityDetail = typeof ActivityDetailResponse.Type
/** GET /treasury/spend-stats: each key's daily spend over the window, its budget usage and its limits. */
export type SpendStats = typeof SpendStatsResponse.Type
/** A team's approval chain: tiers by amount, each with its quorum and the roles that approve. */
export type ApprovalRules = typeof ApprovalRulesBody.Type
/** The body of POST /treasury/spend-freeze: why, and optionally the one key to freeze. */
export type FreezeInput = typeof FreezeBody.Type
/** A spend freeze (the kill switch): its scope, who froze it and why, and its lift. */
export type SpendFreeze = (typeof ActiveFreezes.Type)["data"][number]
/** One immutable version of a key's policy or of the team's default policy. */
export type PolicyVersion = typeof PolicyVersionResponse.Type
/** One entry of the team's hash-chained audit log. */
export type AuditEntry = typeof AuditEntryResponse.Type
/** The answer of verifying the team's audit chain: valid, or its first broken link. */
export type AuditVerification = typeof AuditVerificationResponse.Type
/** A transaction category: the standard taxonomy's (`system`) or the team's own. */
export type Category = typeof CategoryResponse.Type
/** The body of POST /transactions/categories. */
export type CreateCategoryInput = typeof CreateCategoryRequest.Type
/** The body of PATCH /transactions/categories/:id. */
export type UpdateCategoryInput = typeof UpdateCategoryRequest.Type
/** A tag (SPEC.md's Tag). */
export type Tag = typeof TagResponse.Type
/** A bank account; balances in major units of their currency. */
export type BankAccount = typeof BankAccountResponse.Type
/** The body of POST /bank-accounts (a manual account). */
export type CreateBankAccountInput = typeof CreateBankAccountRequest.Type
/** The body of PATCH /bank-accounts/:id. */
export type UpdateBankAccountInput = typeof UpdateBankAccountRequest.Type
/** One rate of the team's exchange-rate table. */
export type ExchangeRate = typeof ExchangeRateResponse.Type
/** Rates to set: `{base, quote, rate (decimal text), validOn (YYYY-MM-DD)}`. */
export type SetExchangeRatesInput = (typeof SetExchangeRatesRequest.Type)["rates"]
/** SPEC.md's Notification. */
export type Notification = typeof NotificationResponse.Type
/** A customer of the team. */
export type Customer = typeof CustomerResponse.Type
/** The body of POST /customers: the name and any optional field. */
export type CreateCustomerInput = typeof CreateCustomerRequest.Type
/** The body of PATCH /customers/:id: each field given replaces the stored one, null clears it. */
export type UpdateCustomerInput = typeof UpdateCustomerRequest.Type
/** A member of a team with their role. */
export type TeamMember = typeof TeamMemberResponse.Type
/** An invitation to a team (never its token). */
export type TeamInvite = typeof TeamInviteResponse.Type
/** The body of PATCH /teams/:id. */
export type UpdateTeamInput = typeof UpdateTeamRequest.Type
/** The body of POST /teams/:id/invites. */
export type InviteInput = typeof InviteRequest.Type
/** The body of PATCH /users/me. */
export type UpdateUserInput = typeof UpdateUserRequest.Type
/**
 * What a report covers: `from`..`to` (YYYY-MM-DD, widened to whole UTC months), `currency` (default: the team's base
 * currency), `revenueType` (`gross` or `net`; revenue defaults to gross, profit to net).
 */
export type ReportParams = typeof ReportQueryParams.Type
/** Each month's revenue against the same month a year earlier, in major units. */
export type RevenueReport = typeof RevenueReportResponse.Type
/** Each month's profit against the same month a year earlier, in major units. */
export type ProfitReport = typeof ProfitReportResponse.Type
/** Each month's spend. */
export type BurnRateReport = typeof BurnRateReportResponse.Type
/** Months of cash left at the median burn of the last 3 completed months. */
export type RunwayReport = typeof RunwayReportResponse.Type
/** Each month's one-off and recurring spend, and the average one-off spend. */
export type ExpensesReport = typeof ExpensesReportResponse.Type
/** Spend by category, largest first, with its share of all spend. */
export type SpendingReport = typeof SpendingReportResponse.Type
/** A business-finance transaction (SPEC.md's Transaction): amounts in major units of its currency. */
export type Transaction = typeof TransactionResponse.Type
/** The body of POST /transactions (and one item of the bulk create). */
export type CreateTransactionInput = typeof CreateTransactionRequest.Type
/** The body of PATCH /transactions/:id: the fields to change (null clears). */
export type UpdateTransactionInput = typeof UpdateTransactionRequest.Type
/** The body of the bulk update: an array of `{id, ...changes}`, or the twin's `{ids, ...changes, tagId}`. */
export type BulkUpdateTransactionsInput = typeof BulkUpdateTransactionsRequest.Type
/** One item of the bulk update's array form: a transaction's id and its changes. */
export type BulkUpdateTransactionInput = Extract<BulkUpdateTransactionsInput, ReadonlyArray<unknown>>[number]
/** SPEC.md's CreateTransactionAttachment: a stored file's path segments, name, size in bytes and MIME type. */
export type CreateTransactionAttachmentInput = typeof CreateTransactionAttachmentRequest.Type
/** An attachment item of a transaction. */
export type TransactionAttachment = NonNullable<Transaction["attachments"]>[number]
/** A page of a newest-first list. */
export interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly meta: { readonly cursor: string | null; readonly hasNextPage: boolean; readonly hasPreviousPage: boolean }
}
/** A tracker project (SPEC.md's TrackerProject, plus `billable` and `rate`); totals in seconds and major units. */
export type TrackerProject = typeof TrackerProjectResponse.Type
/** The body of POST /tracker-projects. */
export type CreateTrackerProjectInput = typeof CreateTrackerProjectRequest.Type
/** The body of PATCH /tracker-projects/:id: each field given replaces the stored one, null clears it. */
export type UpdateTrackerProjectInput = typeof UpdateTrackerProjectRequest.Type
/** A tracker entry; `stop` and `duration` (seconds) are null while its timer runs. */
export type TrackerEntry = typeof TrackerEntryResponse.Type
/** The body of POST /tracker-entries (and one item of the bulk create): a start and a stop or duration. */
export type CreateTrackerEntryInput = typeof CreateTrackerEntryRequest.Type
/** The body of PATCH /tracker-entries/:id. */
export type UpdateTrackerEntryInput = typeof UpdateTrackerEntryRequest.Type
/** The body of POST /tracker-entries/timer/start. */
export type StartTimerInput = typeof StartTimerRequest.Type
/** One ranked result of GET /search. */
export type SearchResult = (typeof SearchResponse.Type)["data"][number]
/** An allow-listed crypto payout destination (an address for one asset on one network, in one mode). */
export type CryptoDestination = typeof CryptoDestinationResponse.Type
/** The body of POST /treasury/crypto/destinations. */
export type CreateCryptoDestinationInput = typeof CreateCryptoDestinationBody.Type
/** A crypto payout quote: fees, what is delivered in the asset's base units, and its expiry. */
export type CryptoQuote = typeof CryptoQuoteResponse.Type
/** The body of POST /v1/crypto/quotes. */
export type CreateCryptoQuoteInput = typeof CreateCryptoQuoteBody.Type
/** A stablecoin payout of a quote: its decision, where the rail has it (`txHash`) and its final status. */
export type CryptoPayout = typeof CryptoPayoutResponse.Type
/** The body of POST /v1/crypto/payouts. */
export type CreateCryptoPayoutInput = typeof CreateCryptoPayoutBody.Type
