import { HttpApi, OpenApi } from "effect/http-api"
import { AgentKeysApi, ApiKeysApi } from "./access/index.ts"
import { GovernanceApi } from "./approvals/index.ts"
import { AuditApi } from "./audit/index.ts"
import { ChangelogApi } from "./changelog/index.ts"
import { CheckoutApi, CheckoutCredentialsApi, CheckoutTestHelpersApi } from "./checkout/index.ts"
import { CryptoDestinationsApi, CryptoPayoutsApi, CryptoQuotesApi } from "./crypto/index.ts"
import { FilesApi } from "./files/index.ts"
import { BankAccountsApi } from "./finance/banking/index.ts"
import { CustomersApi } from "./finance/customers/index.ts"
import { DocumentsApi, InboxApi } from "./finance/documents/index.ts"
import { InvoiceDownloadApi, InvoicePaymentsApi, InvoicesApi } from "./finance/invoices/index.ts"
import { ExchangeRatesApi } from "./finance/money/index.ts"
import { ReportsApi } from "./finance/reports/index.ts"
import { SearchApi } from "./finance/search/index.ts"
import { TagsApi } from "./finance/tags/index.ts"
import { TrackerEntriesApi, TrackerProjectsApi } from "./finance/tracker/index.ts"
import { CategoriesApi, TransactionsApi } from "./finance/transactions/index.ts"
import {
  DashboardSessionApi,
  DashboardSignInApi,
  InvitesApi,
  MeApi,
  PersonalTokensApi,
  TeamAdminApi,
  TeamsApi
} from "./identity/index.ts"
import { InboundEventsApi, withInboundWebhooks } from "./inbound/index.ts"
import { ChatAppApi, MailAccountsApi, MailCallbackApi } from "./integrations/index.ts"
import { AccountsApi } from "./ledger/index.ts"
import { NotificationsApi } from "./notifications/index.ts"
import { OAuthApi, OAuthApplicationsApi, WellKnownApi } from "./oauth/index.ts"
import { DesktopApi, SystemApi } from "./platform/index.ts"
import { withReferenceCatalog } from "./ReferenceCatalog.ts"
import { DeprecationHeaders, InputLimits, RequestValidation } from "./shared/index.ts"
import { SpendEvaluationApi, SpendRequestsApi, TestHelpersApi } from "./spend/index.ts"
import { TransfersApi } from "./transfers/index.ts"
import { TreasuryApi } from "./treasury/index.ts"
import { WebhookEndpointsApi } from "./webhooks/index.ts"
import { X402PaymentsApi } from "./x402/index.ts"

/** The service's HTTP contract: shared by the server, the OpenAPI document and the SDK. */
export class Api extends HttpApi.make("svc")
  .add(SystemApi)
  .add(TeamsApi)
  .add(MeApi)
  .add(AccountsApi)
  .add(SpendRequestsApi)
  .add(SpendEvaluationApi)
  .add(TestHelpersApi)
  .add(TransfersApi)
  .add(CheckoutApi)
  .add(CheckoutCredentialsApi)
  .add(CheckoutTestHelpersApi)
  .add(TreasuryApi)
  .add(GovernanceApi)
  .add(AgentKeysApi)
  .add(AuditApi)
  .add(OAuthApi)
  .add(WellKnownApi)
  .add(ApiKeysApi)
  .add(WebhookEndpointsApi)
  .add(InboundEventsApi)
  .add(OAuthApplicationsApi)
  .add(ReportsApi)
  .add(CategoriesApi)
  .add(TransactionsApi)
  .add(TagsApi)
  .add(BankAccountsApi)
  .add(ExchangeRatesApi)
  .add(TeamAdminApi)
  .add(InvitesApi)
  .add(NotificationsApi)
  .add(CustomersApi)
  .add(FilesApi)
  .add(DocumentsApi)
  .add(InboxApi)
  .add(TrackerProjectsApi)
  .add(TrackerEntriesApi)
  .add(SearchApi)
  .add(InvoicesApi)
  .add(InvoicePaymentsApi)
  .add(InvoiceDownloadApi)
  .add(CryptoDestinationsApi)
  .add(CryptoQuotesApi)
  .add(CryptoPayoutsApi)
  .add(X402PaymentsApi)
  .add(ChatAppApi)
  .add(MailAccountsApi)
  .add(MailCallbackApi)
  .add(DashboardSignInApi)
  .add(DashboardSessionApi)
  .add(PersonalTokensApi)
  .add(ChangelogApi)
  .add(DesktopApi)
  .middleware(InputLimits)
  .middleware(RequestValidation)
  .middleware(DeprecationHeaders)
  .annotate(HttpApi.PayloadParseOptions, { errors: "all", onExcessProperty: "error" })
  .annotate(HttpApi.QueryParseOptions, { errors: "all" })
  .annotate(HttpApi.ParamsParseOptions, { errors: "all" })
  .annotateMerge(
    OpenApi.annotations({
      title: "Governed agent spend and business-finance API",
      version: "0.0.1",
      description:
        "Agents ask to spend a team's money; policy, budgets and human approvals decide; a double-entry ledger moves it. " +
        "Errors are JSON `{error, code, message}`; validation errors add `details: [{path, message}]`. " +
        "What changed, and what is deprecated: the [changelog](/changelog) (JSON; CHANGELOG.md in the repository).",
      license: { name: "MIT", identifier: "MIT" },
      servers: [{ url: "/", description: "This service (its PUBLIC_BASE_URL)" }],
      transform: (document) => withReferenceCatalog(withInboundWebhooks(document))
    })
  ) {}
