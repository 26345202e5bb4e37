import { Layer } from "effect"
import { AgentKeysRepoPg } from "./AgentKeysRepoPg.ts"
import { ApiKeysRepoPg } from "./ApiKeysRepoPg.ts"
import { BankConnectionsRepoPg } from "./BankConnectionsRepoPg.ts"
import { EventOutboxPg } from "./EventOutboxPg.ts"
import { IdempotencyStorePg } from "./IdempotencyStorePg.ts"
import { InboundEventStorePg } from "./InboundEventStorePg.ts"
import { InboxItemsRepoPg } from "./InboxItemsRepoPg.ts"
import { LedgerRepoPg } from "./LedgerRepoPg.ts"
import { ManagedEntitiesRepoPg } from "./ManagedEntitiesRepoPg.ts"
import { OAuthRepoPg } from "./OAuthRepoPg.ts"
import { RateLimiterPg } from "./RateLimiterPg.ts"
import { SpendRequestsRepoPg } from "./SpendRequestsRepoPg.ts"
import { TransactorPg } from "./Sql.ts"
import { TeamPlansRepoPg } from "./TeamPlansRepoPg.ts"
import { TeamsRepoPg } from "./TeamsRepoPg.ts"
import { UsersRepoPg } from "./UsersRepoPg.ts"
import { WebhookDeliveriesRepoPg } from "./WebhookDeliveriesRepoPg.ts"
import { WebhookEndpointsRepoPg } from "./WebhookEndpointsRepoPg.ts"

export { AgentKeysRepoPg } from "./AgentKeysRepoPg.ts"
export { ApiKeysRepoPg } from "./ApiKeysRepoPg.ts"
export { BankConnectionsRepoPg } from "./BankConnectionsRepoPg.ts"
export { clientForUrl, DatabaseInfo, DatabaseLive, embeddedServer } from "./Database.ts"
export { EventOutboxPg } from "./EventOutboxPg.ts"
export { IdempotencyStorePg } from "./IdempotencyStorePg.ts"
export { InboundEventStorePg } from "./InboundEventStorePg.ts"
export { InboxItemsRepoPg } from "./InboxItemsRepoPg.ts"
export { LedgerRepoPg } from "./LedgerRepoPg.ts"
export { ManagedEntitiesRepoPg } from "./ManagedEntitiesRepoPg.ts"
export { Migrations, migrations } from "./Migrations.ts"
export { OAuthRepoPg } from "./OAuthRepoPg.ts"
export { RateLimiterPg } from "./RateLimiterPg.ts"
export { SpendRequestsRepoPg } from "./SpendRequestsRepoPg.ts"
export { TransactorPg } from "./Sql.ts"
export { TeamPlansRepoPg } from "./TeamPlansRepoPg.ts"
export { TeamsRepoPg } from "./TeamsRepoPg.ts"
export { UsersRepoPg } from "./UsersRepoPg.ts"
export { WebhookDeliveriesRepoPg } from "./WebhookDeliveriesRepoPg.ts"
export { WebhookEndpointsRepoPg } from "./WebhookEndpointsRepoPg.ts"

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
