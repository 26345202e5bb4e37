import type {
  AccountResponse,
  ActiveFreezes,
  ApprovalResponse,
  ApprovalRulesBody,
  AuditEntryResponse,
  AuditVerificationResponse,
  BalanceResponse,
  BankAccountResponse,
  BulkUpdateTransactionsRequest,
  BurnRateReportResponse,
  CardCredentialsResponse,
  CategoryResponse,
  CheckoutIntentResponse,
  CreateBankAccountRequest,
  CreateCategoryRequest,
  CreateCheckoutIntentBody,
  CreateCustomerRequest,
  CreatePaymentCodeBody,
  CreateSpendRequestBody,
  CreateTeamRequest,
  CreateTransactionAttachmentRequest,
  CreateTransactionRequest,
  CreateTransferBody,
  CustomerResponse,
  DeletedCustomer,
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
  SetExchangeRatesRequest,
  SpendEvaluationResponse,
  SpendingReportResponse,
  TagResponse,
  TeamInviteResponse,
  TeamMemberResponse,
  TeamResponse,
  TransactionResponse,
  TransferResponse,
  UpdateBankAccountRequest,
  UpdateCategoryRequest,
  UpdateCustomerRequest,
  UpdateTeamRequest,
  UpdateTransactionRequest,
  UpdateUserRequest,
  UserResponse
} from "@svc/adapters-http/api"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { toApiError } from "./ApiError.ts"
import { type ClientOptions, makeClient } from "./Client.ts"

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
/** A single-use payment code with its status as of the answer. */
export type PaymentCode = typeof PaymentCodeResponse.Type
/** The body of POST /v1/transfers/payment-codes. */
export type CreatePaymentCodeInput = typeof CreatePaymentCodeBody.Type
/** A book transfer as the caller's team sees it (`direction`: `outgoing` or `incoming`). */
export type Transfer = typeof TransferResponse.Type
/** The body of POST /v1/transfers: `to` an address or a payment code, an amount in USD minor units, a memo. */
export type CreateTransferInput = typeof CreateTransferBody.Type
/** Which transfers to list: a page, and optionally one status or one side. */
export interface ListTransfersParams extends ListParams {
  readonly status?: Transfer["status"]
  readonly direction?: Transfer["direction"]
}
/** A checkout intent: what the agent may buy, the policy's decision, its card's reference and what it holds. */
export type CheckoutIntent = typeof CheckoutIntentResponse.Type
/** The body of POST /v1/checkout/intents: amount and currency, the merchant, why, and how long it may wait. */
export type CreateCheckoutIntentInput = typeof CreateCheckoutIntentBody.Type
/** The card of an intent: `number` and `cvc` on the first answer only. */
export type CardCredentials = typeof CardCredentialsResponse.Type
/** Which checkout intents to list: a page, and optionally one status. */
export interface ListCheckoutIntentsParams extends ListParams {
  readonly status?: CheckoutIntent["status"]
}
/** An approval with its subject and its progress (`approvals: {required, received, decisions}`). */
export type Approval = typeof ApprovalResponse.Type
/** Which approvals to list: a page, and optionally one status (`pending` for the queue). */
export interface ListApprovalsParams extends ListParams {
  readonly status?: Approval["status"]
}
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
/** Which bank accounts to list: a page, and optionally only enabled or manual ones, or one type. */
export interface ListBankAccountsParams extends ListParams {
  readonly enabled?: boolean
  readonly manual?: boolean
  readonly type?: BankAccount["type"]
}
/** One rate of the team's exchange-rate table. */
export type ExchangeRate = typeof ExchangeRateResponse.Type
/** Rates to set: `{base, quote, rate (decimal text), validOn (YYYY-MM-DD)}`. */
export type SetExchangeRatesInput = (typeof SetExchangeRatesRequest.Type)["rates"]
/** SPEC.md's Notification. */
export type Notification = typeof NotificationResponse.Type
/** Which notifications to list: a page, and optionally statuses (`unread` or `unread,read`). */
export interface ListNotificationsParams extends ListParams {
  readonly status?: string
}
/** A customer of the team. */
export type Customer = typeof CustomerResponse.Type
/** The body of POST /customers: the name and any optional field. */
export type CreateCustomerInput = typeof CreateCustomerRequest.Type
/** The body of PATCH /customers/:id: each field given replaces the stored one, null clears it. */
export type UpdateCustomerInput = typeof UpdateCustomerRequest.Type
/** Which customers to list: a page, and optionally `q` (in the name or e-mail). */
export interface ListCustomersParams extends ListParams {
  readonly q?: string
}
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
/** One item of the bulk update: a transaction's id and its changes. */
export type BulkUpdateTransactionInput = (typeof BulkUpdateTransactionsRequest.Type)[number]
/** SPEC.md's CreateTransactionAttachment: a stored file's path segments, name, size in bytes and MIME type. */
export type CreateTransactionAttachmentInput = typeof CreateTransactionAttachmentRequest.Type
/** An attachment item of a transaction. */
export type TransactionAttachment = NonNullable<Transaction["attachments"]>[number]
/** Which transactions to list: a page, an order and filters (lists as arrays; all given must hold). */
export interface ListTransactionsParams extends ListParams {
  readonly from?: string
  readonly to?: string
  readonly q?: string
  readonly categories?: ReadonlyArray<string>
  readonly tags?: ReadonlyArray<string>
  readonly bankAccounts?: ReadonlyArray<string>
  readonly type?: "income" | "expense"
  readonly statuses?: ReadonlyArray<string>
  /** Bounds on the absolute amount, in major units of `currency` (which they require). */
  readonly amountMin?: number
  readonly amountMax?: number
  readonly currency?: string
  readonly attachments?: boolean
  readonly recurring?: boolean
  readonly frequencies?: ReadonlyArray<string>
  readonly sort?: "date" | "amount"
  readonly direction?: "asc" | "desc"
}
/** Which page of a list to fetch: the previous page's `meta.cursor`, and 1..100 items (default 20). */
export interface ListParams {
  readonly cursor?: string
  readonly limit?: number
}
/** A page of a newest-first list. */
export interface Page<A> {
  readonly data: ReadonlyArray<A>
  readonly meta: { readonly cursor: string | null; readonly hasNextPage: boolean; readonly hasPreviousPage: boolean }
}

/** The slice's routes as plain Promises; each rejects with an `ApiError`. */
export interface PromiseClient {
  readonly createTeam: (input: CreateTeamInput) => Promise<Team>
  readonly listTeams: (params?: ListParams) => Promise<Page<Team>>
  readonly me: () => Promise<User>
  readonly listAccounts: (params?: ListParams) => Promise<Page<Account>>
  readonly getAccount: (id: string) => Promise<Account>
  readonly getBalance: () => Promise<Balance>
  readonly health: () => Promise<{ readonly status: "ok" }>
  /** The credential's team's receive address in the credential's mode. */
  readonly receiveAddress: () => Promise<ReceiveAddress>
  /** The team receiving at `address` (404 when unknown or of the other mode). */
  readonly resolveReceiveAddress: (address: string) => Promise<ReceiveAddress>
  /** A dry run of a spend request: what create would decide for `input` now; writes nothing (no key needed). */
  readonly evaluateSpendRequest: (input: CreateSpendRequestInput) => Promise<SpendEvaluation>
  /** A new payment code; `idempotencyKey` makes the call safe to retry (the same key replays the first answer). */
  readonly createPaymentCode: (input: CreatePaymentCodeInput, idempotencyKey: string) => Promise<PaymentCode>
  /** A payment code of the credential's mode, with its status now (404 when unknown or of the other mode). */
  readonly getPaymentCode: (code: string) => Promise<PaymentCode>
  /** Sends a transfer; `idempotencyKey` makes the call safe to retry (the same key replays the first answer). */
  readonly createTransfer: (input: CreateTransferInput, idempotencyKey: string) => Promise<Transfer>
  /** The team's transfers in the credential's mode, sent and received, newest first. */
  readonly listTransfers: (params?: ListTransfersParams) => Promise<Page<Transfer>>
  readonly getTransfer: (id: string) => Promise<Transfer>
  /** The recipient takes a transfer pending acceptance; a given `idempotencyKey` makes the call safe to retry. */
  readonly acceptTransfer: (id: string, idempotencyKey?: string) => Promise<Transfer>
  /** The recipient refuses a transfer pending acceptance. */
  readonly declineTransfer: (id: string, idempotencyKey?: string) => Promise<Transfer>
  /** The sender withdraws a transfer pending approval or acceptance. */
  readonly cancelTransfer: (id: string, idempotencyKey?: string) => Promise<Transfer>
  /** Asks to buy from one merchant; `idempotencyKey` makes the call safe to retry (the same key replays the first answer). */
  readonly createCheckoutIntent: (input: CreateCheckoutIntentInput, idempotencyKey: string) => Promise<CheckoutIntent>
  /** The team's checkout intents in the credential's mode, newest first. */
  readonly listCheckoutIntents: (params?: ListCheckoutIntentsParams) => Promise<Page<CheckoutIntent>>
  readonly getCheckoutIntent: (id: string) => Promise<CheckoutIntent>
  /** Ends an intent not yet used; a given `idempotencyKey` makes the call safe to retry. */
  readonly cancelCheckoutIntent: (id: string, idempotencyKey?: string) => Promise<CheckoutIntent>
  /**
   * The card of an approved intent. The first answer carries `number` and `cvc`, and no later one does (not even a
   * retry): keep them from this answer.
   */
  readonly checkoutCredentials: (id: string) => Promise<CardCredentials>
  /** The team's approvals with their progress, newest first (a session or OAuth token). */
  readonly listApprovals: (params?: ListApprovalsParams) => Promise<Page<Approval>>
  /** Records the caller's approval; the request is approved once its quorum is reached (409 for a second step). */
  readonly approve: (approvalId: string, note?: string) => Promise<Approval>
  /** Denies the request at once. */
  readonly deny: (approvalId: string, note?: string) => Promise<Approval>
  readonly getApprovalRules: () => Promise<ApprovalRules>
  /** Replaces the team's approval chain (owners and admins). */
  readonly setApprovalRules: (rules: ApprovalRules) => Promise<ApprovalRules>
  /** The team's active freezes (its own and its keys'), newest first. */
  readonly listSpendFreezes: (params?: ListParams) => Promise<Page<SpendFreeze>>
  /** Freezes new spending of the team, or of one key (owners and admins). */
  readonly freezeSpending: (input: FreezeInput) => Promise<SpendFreeze>
  /** Lifts the team's freeze, or the key's. */
  readonly liftSpendFreeze: (spendingKeyId?: string) => Promise<SpendFreeze>
  /** The versions of a spending key's policy and of the team's defaults, newest first (session of an owner or admin). */
  readonly listPolicyVersions: (spendingKeyId: string, params?: ListParams) => Promise<Page<PolicyVersion>>
  /** The team's audit log, newest first (session of an owner or admin). */
  readonly listAuditEntries: (params?: ListParams) => Promise<Page<AuditEntry>>
  /** Recomputes the team's audit chain: valid, or the first broken link (session of an owner or admin). */
  readonly verifyAudit: () => Promise<AuditVerification>
  /** The team's transaction categories, newest first (the standard taxonomy included). */
  readonly listCategories: (params?: ListParams) => Promise<Page<Category>>
  readonly createCategory: (input: CreateCategoryInput) => Promise<Category>
  readonly updateCategory: (id: string, input: UpdateCategoryInput) => Promise<Category>
  /** Deletes a team-defined category (409 for the standard taxonomy's) and answers it. */
  readonly deleteCategory: (id: string) => Promise<Category>
  /** Every tag of the team, by name. */
  readonly listTags: () => Promise<{ readonly data: ReadonlyArray<Tag> }>
  readonly createTag: (name: string) => Promise<Tag>
  readonly renameTag: (id: string, name: string) => Promise<Tag>
  readonly deleteTag: (id: string) => Promise<Tag>
  readonly listBankAccounts: (params?: ListBankAccountsParams) => Promise<Page<BankAccount>>
  readonly createBankAccount: (input: CreateBankAccountInput) => Promise<BankAccount>
  readonly getBankAccount: (id: string) => Promise<BankAccount>
  readonly updateBankAccount: (id: string, input: UpdateBankAccountInput) => Promise<BankAccount>
  /** Deletes the account with its transactions and answers it. */
  readonly deleteBankAccount: (id: string) => Promise<BankAccount>
  /** The team's exchange-rate table. */
  readonly listExchangeRates: () => Promise<{ readonly rates: ReadonlyArray<ExchangeRate> }>
  /** Sets rates (same pair and day replaced) and answers the whole table. */
  readonly setExchangeRates: (rates: SetExchangeRatesInput) => Promise<{ readonly rates: ReadonlyArray<ExchangeRate> }>
  /** Deletes every rate from `base` to `quote`; how many. */
  readonly deleteExchangeRates: (base: string, quote: string) => Promise<{ readonly deleted: number }>
  /** The caller's notifications, newest first. */
  readonly listNotifications: (params?: ListNotificationsParams) => Promise<Page<Notification>>
  /** Sets one notification's status; answers SPEC.md's `{data: Notification}`. */
  readonly setNotificationStatus: (
    id: string,
    status: Notification["status"]
  ) => Promise<{ readonly data: Notification }>
  /** Sets the status of every notification of the caller at once; answers `{data}` with those it changed. */
  readonly setAllNotificationsStatus: (
    status: Notification["status"]
  ) => Promise<{ readonly data: ReadonlyArray<Notification> }>
  readonly listCustomers: (params?: ListCustomersParams) => Promise<Page<Customer>>
  readonly createCustomer: (input: CreateCustomerInput) => Promise<Customer>
  readonly getCustomer: (id: string) => Promise<Customer>
  readonly updateCustomer: (id: string, input: UpdateCustomerInput) => Promise<Customer>
  readonly deleteCustomer: (id: string) => Promise<typeof DeletedCustomer.Type>
  /** A team of the caller (404 for any other). */
  readonly getTeam: (id: string) => Promise<Team>
  /** Changes the team's name or base currency (owners and admins). */
  readonly updateTeam: (id: string, input: UpdateTeamInput) => Promise<Team>
  readonly listTeamMembers: (teamId: string, params?: ListParams) => Promise<Page<TeamMember>>
  /** Mails an invitation to join the team (owners and admins). */
  readonly inviteMember: (teamId: string, input: InviteInput) => Promise<TeamInvite>
  readonly listTeamInvites: (teamId: string, params?: ListParams) => Promise<Page<TeamInvite>>
  /** Accepts an invitation with the mailed token (a session of the invited address). */
  readonly acceptInvite: (token: string) => Promise<TeamMember>
  /** Changes a member's role (409 for the last owner). */
  readonly setMemberRole: (teamId: string, userId: string, role: TeamMember["role"]) => Promise<TeamMember>
  /** Removes a member, or the caller leaves (409 for the last owner). */
  readonly removeMember: (teamId: string, userId: string) => Promise<TeamMember>
  readonly updateMe: (input: UpdateUserInput) => Promise<User>
  /** GET /reports/revenue (scope `reports.read`). */
  readonly revenueReport: (params: ReportParams) => Promise<RevenueReport>
  /** GET /reports/profit (scope `reports.read`). */
  readonly profitReport: (params: ReportParams) => Promise<ProfitReport>
  /** GET /reports/burn-rate (scope `reports.read`). */
  readonly burnRateReport: (params: ReportParams) => Promise<BurnRateReport>
  /** GET /reports/runway (scope `reports.read`); the completed months are the 3 before the current one. */
  readonly runwayReport: (params: ReportParams) => Promise<RunwayReport>
  /** GET /reports/expenses (scope `reports.read`). */
  readonly expensesReport: (params: ReportParams) => Promise<ExpensesReport>
  /** GET /reports/spending (scope `reports.read`). */
  readonly spendingReport: (params: ReportParams) => Promise<SpendingReport>
  /** The team's transactions, newest first unless `sort`/`direction` say otherwise (transactions.read). */
  readonly listTransactions: (params?: ListTransactionsParams) => Promise<Page<Transaction>>
  readonly getTransaction: (id: string) => Promise<Transaction>
  /** Records a manual transaction (transactions.write). */
  readonly createTransaction: (input: CreateTransactionInput) => Promise<Transaction>
  readonly updateTransaction: (id: string, changes: UpdateTransactionInput) => Promise<Transaction>
  /** Deletes the transaction and answers it as it was. */
  readonly deleteTransaction: (id: string) => Promise<Transaction>
  /** Records every transaction or none (a refused item is named by its index). */
  readonly createTransactions: (inputs: ReadonlyArray<CreateTransactionInput>) => Promise<ReadonlyArray<Transaction>>
  /** Applies every item's changes or none. */
  readonly updateTransactions: (items: ReadonlyArray<BulkUpdateTransactionInput>) => Promise<ReadonlyArray<Transaction>>
  /** Deletes every transaction or none; the deleted ids. */
  readonly deleteTransactions: (ids: ReadonlyArray<string>) => Promise<ReadonlyArray<string>>
  /** Attaches a file of the team's storage to the transaction. */
  readonly attachToTransaction: (id: string, file: CreateTransactionAttachmentInput) => Promise<TransactionAttachment>
  /** Detaches a file (the stored file stays) and answers the attachment. */
  readonly detachFromTransaction: (id: string, attachmentId: string) => Promise<TransactionAttachment>
}

const flag = (value: boolean) => (value ? ("true" as const) : ("false" as const))

const commaList = (values: ReadonlyArray<string> | undefined) => (values === undefined ? undefined : values.join(","))

/** The query string of a transaction list: lists comma-separated, flags and bounds as text. */
const transactionsQuery = (params: ListTransactionsParams) => {
  const query = {
    cursor: params.cursor,
    limit: params.limit,
    from: params.from,
    to: params.to,
    q: params.q,
    categories: commaList(params.categories),
    tags: commaList(params.tags),
    bankAccounts: commaList(params.bankAccounts),
    type: params.type,
    statuses: commaList(params.statuses),
    amountMin: params.amountMin === undefined ? undefined : String(params.amountMin),
    amountMax: params.amountMax === undefined ? undefined : String(params.amountMax),
    currency: params.currency,
    attachments: params.attachments === undefined ? undefined : flag(params.attachments),
    recurring: params.recurring === undefined ? undefined : flag(params.recurring),
    frequencies: commaList(params.frequencies),
    sort: params.sort,
    direction: params.direction
  }
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as {
    readonly [K in keyof typeof query]?: Exclude<(typeof query)[K], undefined>
  }
}

/** The request of a POST on one resource (a transfer's accept, decline or cancel, an intent's cancel). */
const partyCall = (id: string, idempotencyKey: string | undefined) => ({
  params: { id },
  headers: idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }
})

/** A Promise client over `fetch`, with the published retry policy (numbers overridable through `retry`). */
export const createClient = (options: ClientOptions): PromiseClient => {
  const client = Effect.runSync(makeClient(options).pipe(Effect.provide(FetchHttpClient.layer)))
  const run = <A, E>(call: Effect.Effect<A, E>): Promise<A> =>
    Effect.runPromise(call.pipe(Effect.catch((failure) => Effect.flatMap(toApiError(failure), Effect.fail))))
  return {
    createTeam: (input) => run(client.teams.create({ payload: input })),
    listTeams: (params = {}) => run(client.me.listTeams({ query: params })),
    me: () => run(client.me.me()),
    listAccounts: (params = {}) => run(client.accounts.list({ query: params })),
    getAccount: (id) => run(client.accounts.get({ params: { id } })),
    getBalance: () => run(client.accounts.balance()),
    health: () => run(client.system.health()),
    receiveAddress: () => run(client.transfers.receiveAddress()),
    resolveReceiveAddress: (address) => run(client.transfers.resolveAddress({ params: { address } })),
    evaluateSpendRequest: (input) => run(client.spendEvaluation.evaluate({ payload: input })),
    createPaymentCode: (input, idempotencyKey) =>
      run(client.transfers.createPaymentCode({ payload: input, headers: { "idempotency-key": idempotencyKey } })),
    getPaymentCode: (code) => run(client.transfers.getPaymentCode({ params: { code } })),
    createTransfer: (input, idempotencyKey) =>
      run(client.transfers.create({ payload: input, headers: { "idempotency-key": idempotencyKey } })),
    listTransfers: (params = {}) => run(client.transfers.list({ query: params })),
    getTransfer: (id) => run(client.transfers.get({ params: { id } })),
    acceptTransfer: (id, idempotencyKey) => run(client.transfers.accept(partyCall(id, idempotencyKey))),
    declineTransfer: (id, idempotencyKey) => run(client.transfers.decline(partyCall(id, idempotencyKey))),
    cancelTransfer: (id, idempotencyKey) => run(client.transfers.cancel(partyCall(id, idempotencyKey))),
    createCheckoutIntent: (input, idempotencyKey) =>
      run(client.checkout.create({ payload: input, headers: { "idempotency-key": idempotencyKey } })),
    listCheckoutIntents: (params = {}) => run(client.checkout.list({ query: params })),
    getCheckoutIntent: (id) => run(client.checkout.get({ params: { id } })),
    cancelCheckoutIntent: (id, idempotencyKey) => run(client.checkout.cancel(partyCall(id, idempotencyKey))),
    checkoutCredentials: (id) => run(client.checkoutCredentials.credentials({ params: { id } })),
    listApprovals: (params = {}) => run(client.treasury.approvals({ query: params })),
    approve: (id, note) =>
      run(client.treasury.approve({ params: { id }, payload: note === undefined ? {} : { note } })),
    deny: (id, note) => run(client.treasury.deny({ params: { id }, payload: note === undefined ? {} : { note } })),
    getApprovalRules: () => run(client.governance.getApprovalRules()),
    setApprovalRules: (rules) => run(client.governance.setApprovalRules({ payload: rules })),
    listSpendFreezes: (params = {}) => run(client.governance.listSpendFreezes({ query: params })),
    freezeSpending: (input) => run(client.governance.freezeSpending({ payload: input })),
    liftSpendFreeze: (spendingKeyId) =>
      run(client.governance.liftSpendFreeze({ query: spendingKeyId === undefined ? {} : { spendingKeyId } })),
    listPolicyVersions: (id, params = {}) =>
      run(client.agentKeys.listPolicyVersions({ params: { id }, query: params })),
    listAuditEntries: (params = {}) => run(client.audit.listAuditEntries({ query: params })),
    verifyAudit: () => run(client.audit.verifyAudit()),
    listCategories: (params = {}) => run(client.categories.list({ query: params })),
    createCategory: (input) => run(client.categories.create({ payload: input })),
    updateCategory: (id, input) => run(client.categories.update({ params: { id }, payload: input })),
    deleteCategory: (id) => run(client.categories.delete({ params: { id } })),
    listTags: () => run(client.tags.list()),
    createTag: (name) => run(client.tags.create({ payload: { name } })),
    renameTag: (id, name) => run(client.tags.update({ params: { id }, payload: { name } })),
    deleteTag: (id) => run(client.tags.delete({ params: { id } })),
    listBankAccounts: ({ enabled, manual, ...rest } = {}) =>
      run(
        client.bankAccounts.list({
          query: {
            ...rest,
            ...(enabled === undefined ? {} : { enabled: flag(enabled) }),
            ...(manual === undefined ? {} : { manual: flag(manual) })
          }
        })
      ),
    createBankAccount: (input) => run(client.bankAccounts.create({ payload: input })),
    getBankAccount: (id) => run(client.bankAccounts.get({ params: { id } })),
    updateBankAccount: (id, input) => run(client.bankAccounts.update({ params: { id }, payload: input })),
    deleteBankAccount: (id) => run(client.bankAccounts.delete({ params: { id } })),
    listExchangeRates: () => run(client.exchangeRates.list()),
    setExchangeRates: (rates) => run(client.exchangeRates.set({ payload: { rates } })),
    deleteExchangeRates: (base, quote) => run(client.exchangeRates.deletePair({ params: { base, quote } })),
    listNotifications: (params = {}) => run(client.notifications.list({ query: params })),
    setNotificationStatus: (id, status) => run(client.notifications.setStatus({ params: { id }, payload: { status } })),
    setAllNotificationsStatus: (status) => run(client.notifications.setAllStatus({ payload: { status } })),
    listCustomers: (params = {}) => run(client.customers.list({ query: params })),
    createCustomer: (input) => run(client.customers.create({ payload: input })),
    getCustomer: (id) => run(client.customers.get({ params: { id } })),
    updateCustomer: (id, input) => run(client.customers.update({ params: { id }, payload: input })),
    deleteCustomer: (id) => run(client.customers.delete({ params: { id } })),
    getTeam: (id) => run(client.teamAdmin.getTeam({ params: { id } })),
    updateTeam: (id, input) => run(client.teamAdmin.updateTeam({ params: { id }, payload: input })),
    listTeamMembers: (id, params = {}) => run(client.teamAdmin.listMembers({ params: { id }, query: params })),
    inviteMember: (id, input) => run(client.teamAdmin.invite({ params: { id }, payload: input })),
    listTeamInvites: (id, params = {}) => run(client.teamAdmin.listInvites({ params: { id }, query: params })),
    acceptInvite: (token) => run(client.invites.accept({ payload: { token } })),
    setMemberRole: (id, userId, role) =>
      run(client.teamAdmin.updateMember({ params: { id, userId }, payload: { role } })),
    removeMember: (id, userId) => run(client.teamAdmin.removeMember({ params: { id, userId } })),
    updateMe: (input) => run(client.teamAdmin.updateMe({ payload: input })),
    revenueReport: (params) => run(client.reports.revenue({ query: params })),
    profitReport: (params) => run(client.reports.profit({ query: params })),
    burnRateReport: (params) => run(client.reports.burnRate({ query: params })),
    runwayReport: (params) => run(client.reports.runway({ query: params })),
    expensesReport: (params) => run(client.reports.expenses({ query: params })),
    spendingReport: (params) => run(client.reports.spending({ query: params })),
    listTransactions: (params = {}) => run(client.transactions.list({ query: transactionsQuery(params) })),
    getTransaction: (id) => run(client.transactions.get({ params: { id } })),
    createTransaction: (input) => run(client.transactions.create({ payload: input })),
    updateTransaction: (id, changes) => run(client.transactions.update({ params: { id }, payload: changes })),
    deleteTransaction: (id) => run(client.transactions.delete({ params: { id } })),
    createTransactions: (inputs) =>
      run(client.transactions.createMany({ payload: inputs }).pipe(Effect.map((answer) => answer.data))),
    updateTransactions: (items) =>
      run(client.transactions.updateMany({ payload: items }).pipe(Effect.map((answer) => answer.data))),
    deleteTransactions: (ids) =>
      run(
        client.transactions
          .deleteMany({ payload: ids })
          .pipe(Effect.map((answer) => answer.data.map((deleted) => deleted.id)))
      ),
    attachToTransaction: (id, file) => run(client.transactions.attach({ params: { id }, payload: file })),
    detachFromTransaction: (id, attachmentId) => run(client.transactions.detach({ params: { id, attachmentId } }))
  }
}
