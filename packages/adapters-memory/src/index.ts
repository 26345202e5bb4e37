import { Layer } from "effect"
import { AccessPortsMemory } from "./access/index.ts"
import { ActivityPortsMemory } from "./activity/index.ts"
import { ApprovalsPortsMemory } from "./approvals/index.ts"
import { AuditPortsMemory } from "./audit/index.ts"
import { CheckoutPortsMemory } from "./checkout/index.ts"
import { CryptoPortsMemory } from "./crypto/index.ts"
import { BankingPortsMemory } from "./finance/banking/index.ts"
import { CustomerCountsPortsMemory, CustomersPortsMemory } from "./finance/customers/index.ts"
import { DocumentsPortsMemory } from "./finance/documents/index.ts"
import { InvoicesPortsMemory } from "./finance/invoices/index.ts"
import { MoneyPortsMemory } from "./finance/money/index.ts"
import { ReportsPortsMemory } from "./finance/reports/index.ts"
import { SearchPortsMemory } from "./finance/search/index.ts"
import { TagsPortsMemory } from "./finance/tags/index.ts"
import { TrackerPortsMemory } from "./finance/tracker/index.ts"
import { TransactionsPortsMemory } from "./finance/transactions/index.ts"
import { IdentityPortsMemory } from "./identity/index.ts"
import { InboundPortsMemory } from "./inbound/index.ts"
import { IntegrationsPortsMemory } from "./integrations/index.ts"
import { LedgerPortsMemory } from "./ledger/index.ts"
import { NotificationsPortsMemory } from "./notifications/index.ts"
import { OAuthPortsMemory } from "./oauth/index.ts"
import { PlatformPortsMemory } from "./platform/index.ts"
import { MemoryStore, TransactorMemory } from "./shared/index.ts"
import { SpendPortsMemory } from "./spend/index.ts"
import { TransfersPortsMemory } from "./transfers/index.ts"
import { WebhooksPortsMemory } from "./webhooks/index.ts"
import { X402PortsMemory } from "./x402/index.ts"

export * from "./access/index.ts"
export * from "./activity/index.ts"
export * from "./approvals/index.ts"
export * from "./audit/index.ts"
export * from "./checkout/index.ts"
export * from "./crypto/index.ts"
export * from "./files/index.ts"
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
export * from "./notifications/index.ts"
export * from "./oauth/index.ts"
export * from "./platform/index.ts"
export * from "./shared/index.ts"
export * from "./spend/index.ts"
export * from "./transfers/index.ts"
export * from "./webhooks/index.ts"
export * from "./x402/index.ts"

/** Every port on the in-memory store, one layer per context, sharing one store per build. */
export const PortsMemory = CustomerCountsPortsMemory.pipe(
  Layer.provideMerge(Layer.mergeAll(ReportsPortsMemory, TrackerPortsMemory, SearchPortsMemory, ActivityPortsMemory)),
  Layer.provideMerge(InvoicesPortsMemory),
  Layer.provideMerge(CustomersPortsMemory),
  Layer.provideMerge(
    Layer.mergeAll(
      TransactorMemory,
      AccessPortsMemory,
      ApprovalsPortsMemory,
      AuditPortsMemory,
      BankingPortsMemory,
      CheckoutPortsMemory,
      CryptoPortsMemory,
      DocumentsPortsMemory,
      IdentityPortsMemory,
      InboundPortsMemory,
      IntegrationsPortsMemory,
      LedgerPortsMemory,
      MoneyPortsMemory,
      NotificationsPortsMemory,
      OAuthPortsMemory,
      PlatformPortsMemory,
      SpendPortsMemory,
      TagsPortsMemory,
      TransactionsPortsMemory,
      TransfersPortsMemory,
      WebhooksPortsMemory,
      X402PortsMemory
    )
  ),
  Layer.provideMerge(MemoryStore.layer)
)
