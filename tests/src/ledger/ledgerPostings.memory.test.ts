import { PortsMemory } from "@svc/adapters-memory"
import { ledgerPostingsContract } from "./LedgerPostingsContract.ts"

ledgerPostingsContract("in-memory", PortsMemory)
