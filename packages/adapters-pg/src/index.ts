import { Layer } from "effect"
import { AgentKeysRepoPg } from "./access/AgentKeysRepoPg.ts"
import { ApiKeysRepoPg } from "./access/ApiKeysRepoPg.ts"
import { BankConnectionsRepoPg } from "./finance/banking/BankConnectionsRepoPg.ts"
import { InboxItemsRepoPg } from "./finance/documents/InboxItemsRepoPg.ts"
import { ManagedEntitiesRepoPg } from "./identity/ManagedEntitiesRepoPg.ts"
import { TeamPlansRepoPg } from "./identity/TeamPlansRepoPg.ts"
import { TeamsRepoPg } from "./identity/TeamsRepoPg.ts"
import { UsersRepoPg } from "./identity/UsersRepoPg.ts"
import { InboundEventStorePg } from "./inbound/InboundEventStorePg.ts"
import { LedgerRepoPg } from "./ledger/LedgerRepoPg.ts"
import { OAuthRepoPg } from "./oauth/OAuthRepoPg.ts"
import { EventOutboxPg } from "./platform/EventOutboxPg.ts"
import { IdempotencyStorePg } from "./platform/IdempotencyStorePg.ts"
import { RateLimiterPg } from "./platform/RateLimiterPg.ts"
import { TransactorPg } from "./shared/Sql.ts"
import { SpendRequestsRepoPg } from "./spend/SpendRequestsRepoPg.ts"
import { WebhookDeliveriesRepoPg } from "./webhooks/WebhookDeliveriesRepoPg.ts"
import { WebhookEndpointsRepoPg } from "./webhooks/WebhookEndpointsRepoPg.ts"

export { AgentKeysRepoPg } from "./access/AgentKeysRepoPg.ts"
export { ApiKeysRepoPg } from "./access/ApiKeysRepoPg.ts"
export { BankConnectionsRepoPg } from "./finance/banking/BankConnectionsRepoPg.ts"
export { InboxItemsRepoPg } from "./finance/documents/InboxItemsRepoPg.ts"
export { ManagedEntitiesRepoPg } from "./identity/ManagedEntitiesRepoPg.ts"
export { TeamPlansRepoPg } from "./identity/TeamPlansRepoPg.ts"
export { TeamsRepoPg } from "./identity/TeamsRepoPg.ts"
export { UsersRepoPg } from "./identity/UsersRepoPg.ts"
export { InboundEventStorePg } from "./inbound/InboundEventStorePg.ts"
export { LedgerRepoPg } from "./ledger/LedgerRepoPg.ts"
export { Migrations, migrations } from "./migrations/Migrations.ts"
export { OAuthRepoPg } from "./oauth/OAuthRepoPg.ts"
export { EventOutboxPg } from "./platform/EventOutboxPg.ts"
export { IdempotencyStorePg } from "./platform/IdempotencyStorePg.ts"
export { RateLimiterPg } from "./platform/RateLimiterPg.ts"
export { clientForUrl, DatabaseInfo, DatabaseLive, embeddedServer } from "./shared/Database.ts"
export { TransactorPg } from "./shared/Sql.ts"
export { SpendRequestsRepoPg } from "./spend/SpendRequestsRepoPg.ts"
export { WebhookDeliveriesRepoPg } from "./webhooks/WebhookDeliveriesRepoPg.ts"
export { WebhookEndpointsRepoPg } from "./webhooks/WebhookEndpointsRepoPg.ts"

/** Every port on Postgres; needs a SqlClient. */
export const PortsPg = Layer.mergeAll(
  TransactorPg,
  UsersRepoPg,
  TeamsRepoPg,
  LedgerRepoPg,
  EventOutboxPg,
  AgentKeysRepoPg,
  SpendRequestsRepoPg,
  IdempotencyStorePg,
  RateLimiterPg,
  OAuthRepoPg,
  ApiKeysRepoPg,
  BankConnectionsRepoPg,
  InboundEventStorePg,
  InboxItemsRepoPg,
  ManagedEntitiesRepoPg,
  TeamPlansRepoPg,
  WebhookDeliveriesRepoPg,
  WebhookEndpointsRepoPg
)
