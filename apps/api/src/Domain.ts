import { InvoiceRendererPdf } from "@svc/adapters-http"
import { SimulatedCardIssuer, SimulatedPaymentsProvider, SimulatedPayoutRail } from "@svc/adapters-memory"
import {
  Activity,
  AgentCredentialsLive,
  AgentKeys,
  ApiKeys,
  ApprovalChains,
  AuditLog,
  BankAccounts,
  CardAuthorizations,
  Categories,
  Checkout,
  CryptoDestinations,
  CryptoPayouts,
  CryptoQuotes,
  Customers,
  Documents,
  ExchangeRateTable,
  FileAccess,
  Inbox,
  Invoices,
  IssuerSimulation,
  Ledger,
  Notifications,
  NotificationsJob,
  OAuth,
  OAuthAppAgents,
  OAuthApplications,
  PaymentCodes,
  PersonalTokens,
  ReceiveAddresses,
  Reports,
  Search,
  SpendFreezes,
  SpendRequests,
  Tags,
  TeamCredentialsLive,
  TeamManagement,
  TeamOpening,
  Teams,
  Tracker,
  Transactions,
  TransferAcceptanceTtl,
  Transfers,
  Users,
  X402Payments
} from "@svc/domain"
import { Layer } from "effect"
import type { ServiceConfig } from "./Config.ts"
import { integrations, integrationsFoundation } from "./Integrations.ts"
import { dashboardSignIn, outboundMail } from "./Mail.ts"
import { checkoutSettings, cryptoFees, payoutRail, x402Payments } from "./Payments.ts"
import { fileStorage, type Ports } from "./Persistence.ts"
import { backgroundJobs } from "./Workers.ts"

/** The domain services (and their background jobs) over a set of ports. */
export const domainServices = <E, R>(config: ServiceConfig, ports: Layer.Layer<Ports, E, R>) => {
  const sweep = `${config.approvalSweepIntervalSeconds} seconds` as const
  return Layer.mergeAll(
    Activity.layer,
    Users.layer,
    Teams.layer,
    TeamOpening.layer,
    TeamManagement.layer({ invitationUrl: `${config.publicBaseUrl}/dashboard/invitations` }),
    PersonalTokens.layer,
    Customers.layer,
    Reports.layer,
    Invoices.layer.pipe(Layer.provide(Layer.merge(InvoiceRendererPdf, SimulatedPaymentsProvider))),
    FileAccess.layer,
    Documents.layer,
    AgentCredentialsLive,
    OAuthAppAgents.layer.pipe(Layer.provide(TeamCredentialsLive)),
    TeamCredentialsLive,
    backgroundJobs(Transfers.sweeper(sweep)),
    backgroundJobs(Checkout.sweeper(sweep)),
    IssuerSimulation.layer,
    backgroundJobs(CryptoPayouts.sweeper(sweep)),
    backgroundJobs(CryptoPayouts.worker(`${config.cryptoWorkerIntervalSeconds ?? 5} seconds`)),
    backgroundJobs(X402Payments.sweeper(sweep)),
    Tracker.layer,
    Search.layer,
    dashboardSignIn(config),
    integrations(config)
  ).pipe(
    Layer.provideMerge(Layer.mergeAll(Checkout.layer, CardAuthorizations.layer)),
    Layer.provideMerge(Layer.merge(SimulatedCardIssuer, checkoutSettings(config))),
    // Where payouts leave: the simulated rail (deterministic confirmations), or the EVM rail with CRYPTO_RAIL=evm.
    Layer.provideMerge(CryptoPayouts.layer.pipe(Layer.provide(payoutRail(SimulatedPayoutRail)))),
    Layer.provideMerge(Layer.merge(Transfers.layer, x402Payments)),
    Layer.provideMerge(CryptoQuotes.layer.pipe(Layer.provide(cryptoFees))),
    Layer.provideMerge(CryptoDestinations.layer),
    Layer.provideMerge(Layer.mergeAll(ReceiveAddresses.layer, PaymentCodes.layer)),
    Layer.provideMerge(Layer.mergeAll(OAuth.layer, OAuthApplications.layer, ApiKeys.layer)),
    Layer.provideMerge(backgroundJobs(SpendRequests.sweeper(sweep))),
    Layer.provideMerge(Layer.mergeAll(SpendRequests.layer, SpendFreezes.layer, ApprovalChains.layer)),
    Layer.provideMerge(Layer.merge(AgentKeys.layer, AuditLog.layer)),
    Layer.provideMerge(Ledger.layer),
    Layer.provideMerge(Layer.merge(Transactions.layer, Inbox.layer)),
    Layer.provideMerge(Layer.mergeAll(Categories.layer, Tags.layer, BankAccounts.layer, ExchangeRateTable.layer)),
    Layer.provideMerge(
      Layer.merge(
        Notifications.layer,
        backgroundJobs(
          NotificationsJob(`${config.notificationIntervalMs ?? 1_000} millis`).pipe(Layer.provide(Notifications.layer))
        )
      )
    ),
    Layer.provideMerge(ports),
    Layer.provideMerge(integrationsFoundation(config)),
    Layer.provideMerge(fileStorage(config)),
    Layer.provideMerge(outboundMail(config)),
    Layer.provideMerge(Layer.succeed(TransferAcceptanceTtl, config.transferAcceptanceTtlSeconds))
  )
}
