import { PortsMemory } from "@svc/adapters-memory"
import { ledgerAccountsContract } from "./LedgerAccountsContract.ts"

ledgerAccountsContract("in-memory", PortsMemory)
