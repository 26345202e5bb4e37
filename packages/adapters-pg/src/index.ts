import { Layer } from "effect"
import { AgentKeysRepoPg } from "./AgentKeysRepoPg.ts"
import { EventOutboxPg } from "./EventOutboxPg.ts"
import { LedgerRepoPg } from "./LedgerRepoPg.ts"
import { SpendRequestsRepoPg } from "./SpendRequestsRepoPg.ts"
import { TransactorPg } from "./Sql.ts"
import { TeamsRepoPg } from "./TeamsRepoPg.ts"
import { UsersRepoPg } from "./UsersRepoPg.ts"

export { AgentKeysRepoPg } from "./AgentKeysRepoPg.ts"
export { clientForUrl, DatabaseInfo, DatabaseLive, embeddedServer } from "./Database.ts"
export { EventOutboxPg } from "./EventOutboxPg.ts"
export { LedgerRepoPg } from "./LedgerRepoPg.ts"
export { Migrations, migrations } from "./Migrations.ts"
export { SpendRequestsRepoPg } from "./SpendRequestsRepoPg.ts"
export { TransactorPg } from "./Sql.ts"
export { TeamsRepoPg } from "./TeamsRepoPg.ts"
export { UsersRepoPg } from "./UsersRepoPg.ts"

/** Every port on Postgres; needs a SqlClient. */
export const PortsPg = Layer.mergeAll(
  TransactorPg,
  UsersRepoPg,
  TeamsRepoPg,
  LedgerRepoPg,
  EventOutboxPg,
  AgentKeysRepoPg,
  SpendRequestsRepoPg
)
