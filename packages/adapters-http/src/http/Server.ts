import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { AgentKeysHttp, ApiKeysHttp } from "./access/index.ts"
import { GovernanceHttp } from "./approvals/index.ts"
import { AuditHttp } from "./audit/index.ts"
import { ChangelogHttp } from "./changelog/index.ts"
import { CheckoutCredentialsHttp, CheckoutHttp, CheckoutTestHelpersHttp } from "./checkout/index.ts"
import { CryptoDestinationsHttp, CryptoPayoutsHttp, CryptoQuotesHttp } from "./crypto/index.ts"
import { FilesHttp } from "./files/index.ts"
import { BankAccountsHttp } from "./finance/banking/index.ts"
import { CustomersHttp } from "./finance/customers/index.ts"
import { DocumentsHttp, InboxHttp } from "./finance/documents/index.ts"
import { InvoiceDownloadHttp, InvoicePaymentsHttp, InvoicesHttp } from "./finance/invoices/index.ts"
import { ExchangeRatesHttp } from "./finance/money/index.ts"
import { ReportsHttp } from "./finance/reports/index.ts"
import { SearchHttp } from "./finance/search/index.ts"
import { TagsHttp } from "./finance/tags/index.ts"
import { TrackerEntriesHttp, TrackerProjectsHttp } from "./finance/tracker/index.ts"
import { CategoriesHttp, TransactionsHttp } from "./finance/transactions/index.ts"
import {
  DashboardSessionHttp,
  DashboardSignInHttp,
  InvitesHttp,
  MeHttp,
  PersonalTokensHttp,
  TeamAdminHttp,
  TeamsHttp
} from "./identity/index.ts"
import { InboundEventsHttp } from "./inbound/index.ts"
import { ChatAppHttp, MailAccountsHttp, MailCallbackHttp } from "./integrations/index.ts"
import { AccountsHttp } from "./ledger/index.ts"
import { AuthenticationLive, DeprecationHeadersLive, ErrorHandlingLive } from "./middleware/index.ts"
import { NotificationsHttp } from "./notifications/index.ts"
import { OAuthApplicationsHttp, OAuthGuardLive, OAuthHttp, WellKnownHttp } from "./oauth/index.ts"
import { DesktopHttp, SystemHttp } from "./platform/index.ts"
import { ReferencePage } from "./ReferencePage.ts"
import { SpendEvaluationHttp, SpendRequestsHttp, TestHelpersHttp } from "./spend/index.ts"
import { TransfersHttp } from "./transfers/index.ts"
import { TreasuryHttp } from "./treasury/index.ts"
import { WebhookEndpointsHttp } from "./webhooks/index.ts"
import { X402PaymentsHttp } from "./x402/index.ts"

/** Every route of the API, its OpenAPI document at /openapi.json and the reference page at /docs. */
export const ApiRoutes = HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
  Layer.provide([
    SystemHttp,
    TeamsHttp,
    MeHttp,
    AccountsHttp,
    SpendRequestsHttp,
    SpendEvaluationHttp,
    TestHelpersHttp,
    TransfersHttp,
    CheckoutHttp,
    CheckoutCredentialsHttp,
    CheckoutTestHelpersHttp,
    TreasuryHttp,
    GovernanceHttp,
    AgentKeysHttp,
    AuditHttp,
    OAuthHttp,
    WellKnownHttp,
    ApiKeysHttp,
    WebhookEndpointsHttp,
    InboundEventsHttp,
    OAuthApplicationsHttp,
    ReportsHttp,
    CategoriesHttp,
    TransactionsHttp,
    TagsHttp,
    BankAccountsHttp,
    ExchangeRatesHttp,
    TeamAdminHttp,
    InvitesHttp,
    NotificationsHttp,
    CustomersHttp,
    FilesHttp,
    DocumentsHttp,
    InboxHttp,
    TrackerProjectsHttp,
    TrackerEntriesHttp,
    SearchHttp,
    InvoicesHttp,
    InvoicePaymentsHttp,
    InvoiceDownloadHttp,
    CryptoDestinationsHttp,
    CryptoQuotesHttp,
    CryptoPayoutsHttp,
    X402PaymentsHttp,
    ChatAppHttp,
    MailAccountsHttp,
    MailCallbackHttp,
    DashboardSignInHttp,
    DashboardSessionHttp,
    PersonalTokensHttp,
    ChangelogHttp,
    DesktopHttp
  ]),
  Layer.provide(AuthenticationLive),
  Layer.provide(OAuthGuardLive),
  Layer.provide(ErrorHandlingLive),
  Layer.provide(DeprecationHeadersLive),
  Layer.merge(ReferencePage)
)
