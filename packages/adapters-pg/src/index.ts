import { Layer } from "effect"
import { AccessPortsPg } from "./access/index.ts"
import { ActivityPortsPg } from "./activity/index.ts"
import { ApprovalsPortsPg } from "./approvals/index.ts"
import { AuditPortsPg } from "./audit/index.ts"
import { CheckoutPortsPg } from "./checkout/index.ts"
import { CryptoPortsPg } from "./crypto/index.ts"
import { BankingPortsPg } from "./finance/banking/index.ts"
import { CustomersPortsPg } from "./finance/customers/index.ts"
import { DocumentsPortsPg } from "./finance/documents/index.ts"
import { InvoicesPortsPg } from "./finance/invoices/index.ts"
import { MoneyPortsPg } from "./finance/money/index.ts"
import { ReportsPortsPg } from "./finance/reports/index.ts"
import { SearchPortsPg } from "./finance/search/index.ts"
import { TagsPortsPg } from "./finance/tags/index.ts"
import { TrackerPortsPg } from "./finance/tracker/index.ts"
import { TransactionsPortsPg } from "./finance/transactions/index.ts"
import { IdentityPortsPg } from "./identity/index.ts"
import { InboundPortsPg } from "./inbound/index.ts"
import { IntegrationsPortsPg } from "./integrations/index.ts"
import { LedgerPortsPg } from "./ledger/index.ts"
import { NotificationsPortsPg } from "./notifications/index.ts"
import { OAuthPortsPg } from "./oauth/index.ts"
import { PlatformPortsPg } from "./platform/index.ts"
import { TransactorPg } from "./shared/index.ts"
import { SpendPortsPg } from "./spend/index.ts"
import { TransfersPortsPg } from "./transfers/index.ts"
import { WebhooksPortsPg } from "./webhooks/index.ts"
import { X402PortsPg } from "./x402/index.ts"

export * from "./access/index.ts"
export * from "./activity/index.ts"
export * from "./approvals/index.ts"
export * from "./audit/index.ts"
export * from "./checkout/index.ts"
export * from "./crypto/index.ts"
export * from "./finance/banking/index.ts"
export * from "./finance/customers/index.ts"
export * from "./finance/documents/index.ts"
export * from "./finance/invoices/index.ts"
export * from "./finance/money/index.ts"
export * from "./finance/reports/index.ts"
export * from "./finance/search/index.ts"
export * from "./finance/tags/index.ts"
export * from "./finance/tracker/index.ts"
export * from "./finance/transactions/index.ts"
export * from "./identity/index.ts"
export * from "./inbound/index.ts"
export * from "./integrations/index.ts"
export * from "./ledger/index.ts"
export { migrations, migrationsBefore, runMigrations } from "./migrations/index.ts"
export * from "./notifications/index.ts"
export * from "./oauth/index.ts"
export * from "./platform/index.ts"
export {
  clientForUrl,
  DatabaseInfo,
  DatabaseLive,
  DatabaseStartup,
  DatabaseStartupFailed,
  embeddedServer,
  ReadReplica,
  TransactorPg
} from "./shared/index.ts"
export * from "./spend/index.ts"
export * from "./transfers/index.ts"
export * from "./webhooks/index.ts"
export * from "./x402/index.ts"

/** Every port on Postgres, one layer per context; needs a SqlClient. */
export const PortsPg = Layer.mergeAll(
  TransactorPg,
  AccessPortsPg,
  ActivityPortsPg,
  ApprovalsPortsPg,
  AuditPortsPg,
  BankingPortsPg,
  CustomersPortsPg,
  CheckoutPortsPg,
  DocumentsPortsPg,
  IdentityPortsPg,
  InboundPortsPg,
  IntegrationsPortsPg,
  LedgerPortsPg,
  MoneyPortsPg,
  NotificationsPortsPg,
  OAuthPortsPg,
  PlatformPortsPg,
  ReportsPortsPg,
  SpendPortsPg,
  TagsPortsPg,
  TransactionsPortsPg,
  TransfersPortsPg,
  WebhooksPortsPg,
  TrackerPortsPg,
  SearchPortsPg,
  InvoicesPortsPg,
  CryptoPortsPg,
  IntegrationsPortsPg,
  X402PortsPg
)
