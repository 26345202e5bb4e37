import { Schema, Struct } from "effect"
import { TeamId } from "../../shared/model.ts"

/** Whether a bank aggregator still reaches the team's bank. */
export const BankConnectionStatus = Schema.Literals(["connected", "disconnected"])
export type BankConnectionStatus = typeof BankConnectionStatus.Type

/** A team's link to a bank through an aggregator (an item or an enrollment on the aggregator's side). */
export const BankConnection = Schema.Struct({
  id: Schema.String,
  teamId: TeamId,
  provider: Schema.String,
  externalId: Schema.String,
  status: BankConnectionStatus,
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type BankConnection = typeof BankConnection.Type

/** A bank connection as its team sees it: the `data` of its `bank_connection.*` events. */
export const BankConnectionView = Schema.Struct({
  id: BankConnection.fields.id,
  object: Schema.Literal("bank_connection"),
  ...Struct.omit(BankConnection.fields, ["id", "teamId", "externalId", "createdAt"])
})
export type BankConnectionView = typeof BankConnectionView.Type

/** The outbound event of a connection's change: the aggregator lost it; it carries `BankConnectionView`. */
export const BankConnectionEventType = Schema.Literal("bank_connection.disconnected")
export type BankConnectionEventType = typeof BankConnectionEventType.Type

/** The view of a bank connection. */
export const bankConnectionView = (connection: BankConnection): BankConnectionView => ({
  id: connection.id,
  object: "bank_connection",
  provider: connection.provider,
  status: connection.status,
  updatedAt: connection.updatedAt
})
